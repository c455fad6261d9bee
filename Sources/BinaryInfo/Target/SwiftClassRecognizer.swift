import TypeLayout

/// A Swift class's metadata record in a target, as its memory states it.
public struct SwiftClassMetadata: Sendable, Hashable {
    /// The metadata's address (what a heap object's first word holds).
    public var address: UInt64
    /// The class's nominal type descriptor (in one of the target's Swift images).
    public var descriptor: UInt64
    /// The superclass's metadata, nil for a root class.
    public var superclass: UInt64?
    /// The size of an instance, header included (`instanceSize`).
    public var instanceSize: UInt32
    /// The instances' alignment (`instanceAlignMask + 1`).
    public var instanceAlignment: UInt32
    /// The load address of the image that holds the descriptor.
    public var imageLoadAddress: UInt64
}

/// Decides whether a word read from a heap object's start is a Swift class's metadata: exactly,
/// from the target's memory, never by guess.
///
/// A word is a class's metadata when its record is readable, its kind word is the class kind
/// (0, on Linux, where classes have no Objective-C isa), and its descriptor pointer is exactly
/// one of the class descriptors the target's Swift images list in `swift5_type_metadata` at their load
/// addresses; its sizes must be ones the runtime writes (an instance at least a header's size, an
/// alignment mask one less than a power of two). Anything else is not a Swift object.
public struct SwiftClassRecognizer: Sendable {
    /// Every class descriptor of the target's Swift images, with the image's load address.
    public let classDescriptors: [UInt64: UInt64]
    /// Every capture descriptor of the target's Swift images (`swift5_capture`), by address.
    let captureDescriptors: [UInt64: CaptureDescriptor]
    let memory: TargetMemory

    /// The bytes of `TargetClassMetadata` read (without Objective-C interop): kind, superclass,
    /// flags, instance address point, instance size, alignment mask, reserved, class size, class
    /// address point, description (Metadata.h).
    static let recordSize = 48
    /// The smallest instance: the heap object header (metadata pointer and reference counts).
    static let headerSize: UInt32 = 16
    /// The most entries read from one image's `swift5_type_metadata` (a record is 4 bytes; the largest
    /// real image lists tens of thousands).
    static let maximumTypeRecords: UInt64 = 1 << 22

    /// Reads the class descriptors of `memory`'s Swift images.
    ///
    /// - Throws: ``BinaryInfoError`` when a type list cannot be read from the target (an image
    ///   whose list is malformed is an error, not a silently smaller list).
    public init(memory: TargetMemory) throws(BinaryInfoError) {
        self.memory = memory
        var descriptors: [UInt64: UInt64] = [:]
        for image in memory.images {
            guard let list = image.section("swift5_type_metadata") else { continue }
            let count = UInt64(list.count) / 4
            guard count <= Self.maximumTypeRecords else {
                throw BinaryInfoError.malformedRecord(
                    path: memory.path, what: "swift5_type_metadata of \(image.filePath)", address: list.lowerBound,
                    detail: "\(count) records")
            }
            // The list in one read (a syscall per record would dominate for a large image).
            let records = try memory.bytes(at: list.lowerBound, count: Int(count * 4), what: "swift5_type_metadata of \(image.filePath)")
            for index in 0..<Int(count) {
                let record = list.lowerBound + UInt64(index * 4)
                // The low two bits say how the offset reaches the descriptor (TypeReferenceKind):
                // 0 directly, 1 through a pointer; other kinds name no Swift descriptor.
                let raw = Int32(littleEndian: records.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: index * 4, as: Int32.self) })
                let kind = raw & 3
                guard kind <= 1,
                    var descriptor = try memory.apply(offset: Int64(raw & ~3), to: record, what: "type metadata record")
                else { continue }
                if kind == 1 {
                    descriptor = try memory.read(UInt64.self, at: descriptor, what: "indirect type descriptor")
                }
                let flags = try memory.read(UInt32.self, at: descriptor, what: "type descriptor flags")
                if flags & 0x1F == UInt32(ContextDescriptorKind.class.rawValue) { descriptors[descriptor] = image.loadAddress }
            }
        }
        classDescriptors = descriptors
        var captures: [UInt64: CaptureDescriptor] = [:]
        for image in memory.images {
            for descriptor in try Self.captureDescriptors(of: image, in: memory) { captures[descriptor.address] = descriptor }
        }
        captureDescriptors = captures
    }

    /// The class metadata at `address`, or nil when it is not one (unreadable, another kind, a
    /// descriptor no Swift image of the target lists as a class, sizes the runtime never writes).
    public func classMetadata(at address: UInt64) -> SwiftClassMetadata? {
        guard Self.mayBeMetadata(address) else { return nil }
        return withUnsafeTemporaryAllocation(byteCount: Self.recordSize, alignment: 8) { record in
            guard (try? memory.fetch(into: record, from: address, what: "class metadata")) != nil else { return nil }
            return classMetadata(at: address, record: UnsafeRawBufferPointer(record))
        }
    }

    /// The class metadata among `candidates` (heap objects' first words: a few metadata
    /// addresses repeated many times, and many words that are not), each distinct word checked
    /// once, their records read many to a system call.
    public func classMetadata(candidates: some Sequence<UInt64>) -> [UInt64: SwiftClassMetadata] {
        var checked: Set<UInt64> = []
        let words = candidates.filter { Self.mayBeMetadata($0) && checked.insert($0).inserted }
        var found: [UInt64: SwiftClassMetadata] = [:]
        for (word, metadata) in zip(words, classMetadata(each: words)) where metadata != nil { found[word] = metadata }
        return found
    }

    /// The class metadata at each of `words`, nil where a word is not one (as
    /// ``classMetadata(at:)`` decides), their records read many to a system call: for judging
    /// many distinct words at once, where a read per word would cost most of the time.
    public func classMetadata(each words: [UInt64]) -> [SwiftClassMetadata?] {
        var result = [SwiftClassMetadata?](repeating: nil, count: words.count)
        let candidates = words.indices.filter { Self.mayBeMetadata(words[$0]) }
        guard !candidates.isEmpty else { return result }
        let batch = classMetadataInSpans(words, candidates, into: &result)
        guard !batch.isEmpty else { return result }
        let bytes = UnsafeMutableRawBufferPointer.allocate(
            byteCount: min(batch.count, Self.recordsPerBatch) * Self.recordSize, alignment: 8)
        defer { bytes.deallocate() }
        var start = 0
        while start < batch.count {
            let part = batch[start..<min(start + Self.recordsPerBatch, batch.count)]
            let addresses = part.map { words[$0] }
            // A process that cannot be read any more has no metadata to give: as an unreadable word.
            let read = (try? memory.fetchRecords(at: addresses, size: Self.recordSize, into: bytes)) ?? []
            for (offset, index) in part.enumerated() where offset < read.count && read[offset] {
                let record = UnsafeRawBufferPointer(rebasing: bytes[offset * Self.recordSize..<(offset + 1) * Self.recordSize])
                result[index] = classMetadata(at: words[index], record: record)
            }
            start += Self.recordsPerBatch
        }
        return result
    }

    /// The widest span of the target ``classMetadata(each:)`` copies whole for the records in it.
    static let spanBytes: UInt64 = 64 << 10
    /// The most bytes a span may copy per record in it: a record read on its own costs the system
    /// about as much as copying this many bytes (pinning its page), so denser spans are copied whole.
    static let spanBytesPerRecord: UInt64 = 1024

    /// Judges the candidates (indices into `words`) that lie close together in address order,
    /// each run copied whole in one read (weak references' side tables point at objects next to
    /// one another); the candidates left, scattered or in a span that could not be read whole.
    private func classMetadataInSpans(_ words: [UInt64], _ candidates: [Int], into result: inout [SwiftClassMetadata?]) -> [Int] {
        let order = candidates.sorted { words[$0] < words[$1] }
        let span = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(Self.spanBytes) + Self.recordSize, alignment: 8)
        defer { span.deallocate() }
        var scattered: [Int] = []
        var first = 0
        while first < order.count {
            let start = words[order[first]]
            var end = first + 1
            while end < order.count, words[order[end]] - start <= Self.spanBytes { end += 1 }
            let length = words[order[end - 1]] - start + UInt64(Self.recordSize)
            let bytes = UnsafeMutableRawBufferPointer(rebasing: span[0..<Int(length)])
            if end - first > 1, length <= UInt64(end - first) * Self.spanBytesPerRecord,
                (try? memory.fetch(into: bytes, from: start, what: "class metadata")) != nil
            {
                for index in order[first..<end] {
                    let offset = Int(words[index] - start)
                    result[index] = classMetadata(
                        at: words[index], record: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + Self.recordSize]))
                }
            } else {
                scattered += order[first..<end]
            }
            first = end
        }
        return scattered
    }

    /// Records read at once by ``classMetadata(each:)``.
    static let recordsPerBatch = 1024

    /// Whether `word` can be a metadata address at all: pointer-aligned, past the first page (never
    /// mapped), and a user-space address (below 2^57, the most any 64-bit Linux gives a process).
    /// A word that is not is never read.
    public static func mayBeMetadata(_ word: UInt64) -> Bool {
        word >= 4096 && word & 7 == 0 && word < 1 << 57
    }

    /// Decides from the ``recordSize`` bytes read at `address`.
    private func classMetadata(at address: UInt64, record: UnsafeRawBufferPointer) -> SwiftClassMetadata? {
        func word(_ offset: Int) -> UInt64 { UInt64(littleEndian: record.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        func half(_ offset: Int) -> UInt32 { UInt32(littleEndian: record.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
        let alignMask = UInt32(UInt16(littleEndian: record.loadUnaligned(fromByteOffset: 28, as: UInt16.self)))
        let instanceSize = half(24)
        guard word(0) == UInt64(MetadataKind.class.rawValue), let image = classDescriptors[word(40)],
            instanceSize >= Self.headerSize, (alignMask + 1) & alignMask == 0, half(36) <= half(32)
        else { return nil }
        let superclass = word(8)
        return SwiftClassMetadata(
            address: address, descriptor: word(40), superclass: superclass == 0 ? nil : superclass, instanceSize: instanceSize,
            instanceAlignment: alignMask + 1, imageLoadAddress: image)
    }
}
