/// A closure context's or a fixed-size box's metadata in a target (`HeapLocalVariable`: the
/// runtime gives both the same kind, and a box is described as a context of one capture).
public struct SwiftContextMetadata: Sendable, Hashable {
    /// The metadata's address (what the object's first word holds).
    public var address: UInt64
    /// Its capture descriptor, in one of the target's Swift images (`swift5_capture`).
    public var captureDescriptor: UInt64
    /// How many values the context holds (the descriptor's capture types).
    public var captureCount: Int
    /// Where the first captured value lies in the object (`OffsetToFirstCapture`).
    public var offsetToFirstCapture: UInt32
    /// The load address of the image that holds the descriptor.
    public var imageLoadAddress: UInt64
    /// How many metadata sources and necessary bindings its descriptor lists: either nonzero
    /// means a generic closure, whose captures' types are read from each context.
    public var metadataSourceCount = 0
    public var bindingCount = 0

    /// Whether its captures' layout is the same in every context of this metadata (its
    /// descriptor needs nothing read from the context itself).
    public var layoutIsFixed: Bool { metadataSourceCount == 0 && bindingCount == 0 }
}

/// One capture descriptor of `swift5_capture` (RemoteInspection's `CaptureDescriptor`).
struct CaptureDescriptor: Sendable {
    var address: UInt64
    var captureCount: Int
    var imageLoadAddress: UInt64
    var metadataSourceCount = 0
    var bindingCount = 0
}

extension SwiftClassRecognizer {
    /// `MetadataKind::HeapLocalVariable` (MetadataKind.def: 0 | MetadataKindIsNonType).
    static let heapLocalVariableKind: UInt64 = 0x400

    /// The closure-context or box metadata at `address`, or nil when it is not one: exactly when
    /// its kind word is `HeapLocalVariable` and its capture description points at the start of a
    /// capture descriptor one of the target's Swift images lists (boxes made at run time for
    /// generic or resilient types, `HeapGenericLocalVariable`, are not recognised).
    public func contextMetadata(at address: UInt64) -> SwiftContextMetadata? {
        // TargetHeapLocalVariableMetadata: kind, OffsetToFirstCapture (32 bits), CaptureDescription.
        guard address != 0, address & 7 == 0,
            let kind = try? memory.read(UInt64.self, at: address, what: "context metadata"), kind == Self.heapLocalVariableKind,
            let offset = try? memory.read(UInt32.self, at: address &+ 8, what: "context metadata"),
            let description = try? memory.read(UInt64.self, at: address &+ 16, what: "context metadata"),
            let descriptor = captureDescriptors[description], offset >= Self.headerSize
        else { return nil }
        return SwiftContextMetadata(
            address: address, captureDescriptor: description, captureCount: descriptor.captureCount, offsetToFirstCapture: offset,
            imageLoadAddress: descriptor.imageLoadAddress, metadataSourceCount: descriptor.metadataSourceCount,
            bindingCount: descriptor.bindingCount)
    }

    /// The capture descriptors of `image`'s `swift5_capture`, walked from its start: three counts
    /// (capture types, metadata sources, bindings), then a 4-byte record per capture type and an
    /// 8-byte record per metadata source (RemoteInspection/Records.h).
    ///
    /// - Throws: ``BinaryInfoError/malformedRecord(path:what:address:detail:)`` for a descriptor
    ///   that runs past the section.
    static func captureDescriptors(of image: TargetImage, in memory: TargetMemory) throws(BinaryInfoError) -> [CaptureDescriptor] {
        guard let section = image.section("swift5_capture"), !section.isEmpty, section.count <= 1 << 26 else { return [] }
        let bytes = try memory.bytes(at: section.lowerBound, count: section.count, what: "swift5_capture of \(image.filePath)")
        func count(_ offset: Int) -> UInt64 {
            UInt64(UInt32(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }))
        }
        var descriptors: [CaptureDescriptor] = []
        var offset = 0
        while offset + 12 <= bytes.count {
            let size = 12 + 4 * count(offset) + 8 * count(offset + 4)
            guard size <= UInt64(bytes.count - offset) else {
                throw BinaryInfoError.malformedRecord(
                    path: memory.path, what: "capture descriptor of \(image.filePath)", address: section.lowerBound + UInt64(offset),
                    detail: "its \(size) bytes run past swift5_capture")
            }
            descriptors.append(
                CaptureDescriptor(
                    address: section.lowerBound + UInt64(offset), captureCount: Int(count(offset)), imageLoadAddress: image.loadAddress,
                    metadataSourceCount: Int(count(offset + 4)), bindingCount: Int(count(offset + 8))))
            offset += Int(size)
        }
        return descriptors
    }
}
