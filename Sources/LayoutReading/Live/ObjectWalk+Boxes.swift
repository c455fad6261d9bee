import BinaryInfo
import TypeLayout
import TypeLowering

/// The payload of an indirect enum case, which lives in a box the case's reference points to.
///
/// A box is an object whose metadata is a box's, not a class's: one the runtime made for a type
/// (`GenericBoxHeapMetadata`, kind `HeapGenericLocalVariable`: the payload's offset in the box as
/// 32 bits after the kind, then the boxed type's metadata; include/swift/ABI/Metadata.h), or one
/// the compiler emitted for a fixed-size payload (kind `HeapLocalVariable`, with its capture
/// descriptor and the offset of the payload, as ``SwiftClassRecognizer/contextMetadata(at:)``
/// checks it).
extension ObjectWalk {
    /// `MetadataKind::HeapGenericLocalVariable` (0 | non-type | runtime-private).
    static let genericBoxKind: UInt64 = 0x500
    /// The bits of an object pointer in an enum payload: a multi-payload enum keeps its case in
    /// the spare bits above a user-space address and below an object's alignment.
    static let objectPointerBits: UInt64 = 0x0000_7FFF_FFFF_FFF8
    /// An offset past this is no box the runtime makes (a header and an alignment padding).
    static let maximumBoxOffset: UInt32 = 4096

    /// A box's payload: where it lies, and its type's mangling when the box's metadata states
    /// one the reflection library can be asked about.
    struct BoxedPayload {
        var address: UInt64
        var mangling: String?
    }

    /// Where the payload lies in the box `object`, or why it cannot be told; nil when `object`'s
    /// first word is a class's metadata (the case holds an object, not a box).
    func boxPayload(of object: UInt64) -> Answer<BoxedPayload>? {
        let metadata: UInt64
        do {
            metadata = try memory.read(UInt64.self, at: object, what: "a box's first word")
        } catch {
            return .unknown("its box at 0x\(String(object, radix: 16)) is not in the target")
        }
        if inspector.classMetadata(at: metadata) != nil { return nil }
        if let context = inspector.contextMetadata(at: metadata), context.captureCount == 1 {
            return .known(
                BoxedPayload(address: object &+ UInt64(context.offsetToFirstCapture), mangling: captureType(of: context.captureDescriptor)))
        }
        guard let kind = try? memory.read(UInt64.self, at: metadata, what: "a box's metadata kind"), kind == Self.genericBoxKind,
            let offset = try? memory.read(UInt32.self, at: metadata &+ 8, what: "a box's payload offset"),
            offset >= 16, offset <= Self.maximumBoxOffset
        else {
            return .unknown("0x\(String(object, radix: 16)) is not a box whose metadata typeinfo recognises")
        }
        return .known(BoxedPayload(address: object &+ UInt64(offset), mangling: nil))
    }

    /// The mangling of a capture descriptor's first capture type (its fourth word, a relative
    /// pointer; RemoteInspection/Records.h), when it is plain text: one with a symbolic reference
    /// (a byte below 0x20) is not a mangling the library is asked about.
    func captureType(of descriptor: UInt64) -> String? {
        guard let offset = try? memory.read(Int32.self, at: descriptor &+ 12, what: "a capture type"), offset != 0 else { return nil }
        let address = UInt64(bitPattern: Int64(bitPattern: descriptor &+ 12) &+ Int64(offset))
        for count in [128, 16] {
            guard let bytes = try? memory.bytes(at: address, count: count, what: "a capture type") else { continue }
            guard let end = bytes.firstIndex(of: 0), end > 0, bytes[..<end].allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
        return nil
    }
}
