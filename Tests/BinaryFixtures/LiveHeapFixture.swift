import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A running `Fixtures/LiveHeap/main.swift` process: a release-built Swift program with a known
/// heap, which prints what it holds (its ``LiveHeapReport``) and waits to be grown or killed.
public final class LiveHeapFixture {
    /// How the fixture's Swift runtime is linked.
    public enum Linking: String, CaseIterable, Sendable, CustomStringConvertible {
        /// libswiftCore.so from the toolchain.
        case dynamic
        /// `-static-stdlib`: the runtime inside the executable, as servers are deployed.
        case staticStdlib

        public var description: String { rawValue }
    }

    public let executable: String
    public let processID: Int32
    /// What the process printed about itself on start (or after the last ``grow()``).
    public private(set) var report: LiveHeapReport
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var pending = Data()

    private static let built = Mutex<[Linking: Result<String, FixtureError>]>([:])
    private static let compiling = NSLock()

    /// The release-built executable (compiled once per test process).
    public static func product(_ linking: Linking) throws -> String {
        compiling.lock()
        defer { compiling.unlock() }
        if let done = built.withLock({ $0[linking] }) { return try done.get() }
        let directory = ScratchDirectory.path(named: "live-heap")
        let result = Result<String, any Error> {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let output = directory + "/live-heap-\(linking)"
            let source = FixtureToolchain.fixturesDirectory + "/LiveHeap/main.swift"
            let linkFlags = linking == .staticStdlib ? ["-static-stdlib"] : []
            try FixtureToolchain.run(
                FixtureToolchain.swiftc, ["-O", "-swift-version", "5", "-module-name", "LiveHeap"] + linkFlags + [source, "-o", output],
                in: directory)
            return output
        }.mapError { $0 as? FixtureError ?? FixtureError(message: "\($0)") }
        built.withLock { $0[linking] = result }
        return try result.get()
    }

    /// Starts the fixture and waits for its first report.
    ///
    /// - Parameter copy: run a copy of the executable made at this path (a test may then move,
    ///   replace or remove the file the process runs).
    public init(_ linking: Linking = .dynamic, runningCopyAt copy: String? = nil) throws {
        let product = try Self.product(linking)
        if let copy {
            try? FileManager.default.removeItem(atPath: copy)
            // Copied by cp, not in this process: a write descriptor held here would be inherited
            // by any process another test starts meanwhile, and exec would fail with ETXTBSY.
            _ = try FixtureToolchain.run("/bin/cp", [product, copy], in: "/")
        }
        executable = copy ?? product
        process.executableURL = URL(fileURLWithPath: executable)
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        processID = process.processIdentifier
        report = LiveHeapReport(pid: 0, threads: 0, contexts: nil, types: [], samples: [])
        do {
            report = try readReport()
        } catch {
            finish()
            throw error
        }
    }

    /// Asks the fixture to make its known batch of further objects, and waits for its new report.
    @discardableResult
    public func grow() throws -> LiveHeapReport {
        try input.fileHandleForWriting.write(contentsOf: Data("grow\n".utf8))
        report = try readReport()
        return report
    }

    /// Kills the process (SIGKILL: the test runner's blocked signals are inherited) and waits for it.
    public func finish() {
        if process.isRunning { kill(processID, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { finish() }

    private func readReport() throws -> LiveHeapReport {
        while !pending.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw FixtureError(message: "\(executable) ended before reporting its heap") }
            pending.append(chunk)
        }
        let end = pending.firstIndex(of: UInt8(ascii: "\n"))!
        let line = pending[pending.startIndex..<end]
        pending = Data(pending[(end + 1)...])
        do {
            return try JSONDecoder().decode(LiveHeapReport.self, from: line)
        } catch {
            throw FixtureError(message: "\(executable) printed \(String(decoding: line.prefix(300), as: UTF8.self)): \(error)")
        }
    }
}

/// What the live-heap fixture says it holds.
public struct LiveHeapReport: Decodable, Sendable {
    /// One of the fixture's own types, as the runtime names it.
    public struct HeldType: Decodable, Sendable {
        /// `String(reflecting:)`: `LiveHeap.Box<Swift.Int>`.
        public var type: String
        /// The type's metadata address in the process, `0x…`.
        public var metadata: String
        /// Live instances.
        public var count: Int
        /// The sum of the instances' `malloc_usable_size`.
        public var bytes: Int
        /// The end of the last stored field (superclasses' included), or 16 without fields: the
        /// instance size from the runtime's reflection (`_forEachField(of:options: .classType)`).
        public var instanceSize: Int?
        /// The stored fields, superclasses' first, as `_forEachField` states them.
        public var fields: [Field]?
    }

    /// A stored field's name and offset in the instance.
    public struct Field: Decodable, Sendable, Equatable {
        public var name: String
        public var offset: Int

        public init(name: String, offset: Int) {
            self.name = name
            self.offset = offset
        }
    }

    /// A sample object and the values of its fields, as the process reads them.
    public struct Sample: Decodable, Sendable {
        public var name: String
        public var address: String
        public var type: String
        public var id: Int?
        public var orderName: String?
        public var price: Double?
        public var paid: Bool?
        /// `"\(status)"`: `shipped(7)`.
        public var status: String?
        public var tags: [String]?
        public var parent: String?
        public var legs: Int?
        public var dogName: String?
        /// `root.tags`'s storage object and its type (`Swift._ContiguousArrayStorage<Swift.String>`).
        public var tagsStorage: String?
        public var tagsStorageType: String?
    }

    /// A closure's context object: its address, and how many values the closure captures.
    public struct Context: Decodable, Sendable {
        public var name: String
        public var address: String
        public var captures: Int
    }

    public var pid: Int32
    public var threads: Int
    /// The contexts of two closures the fixture keeps (a boxed variable's, a two-value one).
    public var contexts: [Context]?
    public var types: [HeldType]
    public var samples: [Sample]

    public func sample(_ name: String) -> Sample? { samples.first { $0.name == name } }
}
