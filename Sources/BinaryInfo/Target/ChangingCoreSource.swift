import Synchronization

/// A core file's bytes that change while they are read: the first reads see the bytes as they
/// were, and every read after a number of them sees some bytes changed since (a stretch at a place
/// derived from the seed and the read's number overwritten with other bytes). A live process's
/// memory changes so under a reading; the readers that go around a running process's changes are
/// fuzzed with it, as readers of a core that changes are (``CoreFile/init(bytes:name:changingAfterReads:seed:)``).
final class ChangingCoreSource: CoreFileSource {
    let path: String
    private let state: Mutex<State>
    private let stableReads: Int

    private struct State: ~Copyable {
        var bytes: [UInt8]
        var reads = 0
        var random: UInt64
    }

    init(bytes: [UInt8], path: String, changingAfterReads stableReads: Int, seed: UInt64) {
        self.path = path
        self.stableReads = stableReads
        state = Mutex(State(bytes: bytes, random: seed | 1))
    }

    func read(into destination: UnsafeMutableRawBufferPointer, atOffset offset: UInt64) throws(BinaryInfoError) -> Int {
        state.withLock { state in
            state.reads += 1
            if state.reads > stableReads, !state.bytes.isEmpty { Self.change(&state) }
            guard offset < UInt64(state.bytes.count) else { return 0 }
            let piece = Int(min(UInt64(destination.count), UInt64(state.bytes.count) - offset))
            state.bytes.withUnsafeBytes { bytes in
                destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[Int(offset)..<Int(offset) + piece]))
            }
            return piece
        }
    }

    func currentSize() -> UInt64? { state.withLock { UInt64($0.bytes.count) } }

    /// Overwrites up to 64 bytes at a random place: zeros, ones, a copy of other bytes of the
    /// file (another chunk's header, a pointer), or random bytes.
    private static func change(_ state: inout State) {
        func next() -> UInt64 {
            state.random ^= state.random << 13
            state.random ^= state.random >> 7
            state.random ^= state.random << 17
            return state.random
        }
        let count = state.bytes.count
        let start = Int(next() % UInt64(count))
        let length = min(count - start, 1 + Int(next() % 64))
        let source = Int(next() % UInt64(count))
        let kind = next() % 4
        for index in 0..<length {
            let value: UInt8 =
                switch kind {
                case 0: 0
                case 1: 0xFF
                case 2: state.bytes[(source + index) % count]
                default: UInt8(truncatingIfNeeded: next())
                }
            state.bytes[start + index] = value
        }
    }
}

extension CoreFile {
    /// Reads a core file held in memory whose bytes change after `stableReads` reads of it (see
    /// ``ChangingCoreSource``): for fuzzing the readers of a target that changes while read.
    ///
    /// - Throws: as ``init(path:)``.
    @_spi(Fuzzing)
    public init(bytes: [UInt8], name: String, changingAfterReads stableReads: Int, seed: UInt64) throws(BinaryInfoError) {
        let source = ChangingCoreSource(bytes: bytes, path: name, changingAfterReads: stableReads, seed: seed)
        let file = try ELFFile(bytes: FileBytes(bytes, path: name), includeStaticSymbols: false, includeTables: false, sortsSymbols: false)
        try self.init(file: file, reader: CoreFileReader(source, size: UInt64(bytes.count)))
    }
}
