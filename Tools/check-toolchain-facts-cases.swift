// Enum case payloads as the runtime's reflection sees them (Tools/check-toolchain-facts): each
// case's field record, in the loaded image, names its payload type; the runtime resolves that
// name in the enum's context, exactly as Mirror does for a value of the case.

/// The length of a mangled name in memory: symbolic references (0x01-0x17) carry a 4-byte
/// relative offset, 0x18-0x1F an absolute pointer; a 0 byte ends the name (docs/ABI/Mangling.rst).
func mangledNameLength(_ name: UnsafeRawPointer) -> Int {
    var length = 0
    while true {
        let byte = name.load(fromByteOffset: length, as: UInt8.self)
        switch byte {
        case 0: return length
        case 0x01...0x17: length += 1 + 4
        case 0x18...0x1F: length += 1 + MemoryLayout<UnsafeRawPointer>.size
        default: length += 1
        }
        if length > 4096 { return 0 }
    }
}

/// Prints, for each case in tag order (payload cases first, as the field records are laid out):
/// `casepayload k hasPayload indirect typeName size`.
/// FieldDescriptor: mangled type name, superclass, kind (16 bits), record size (16 bits), record
/// count, then records of flags (bit 0: indirect case), mangled type name, field name.
func observeCasePayloads(of type: Any.Type, descriptor: UnsafeRawPointer, output: Output) {
    guard let fields = relative(descriptor + 16, indirectable: false) else { return }
    let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    let count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
    guard recordSize >= 12, count < 100_000 else { return }
    for k in 0..<count {
        let record = fields + 16 + k * recordSize
        let indirect = record.load(as: UInt32.self) & 1 == 1
        guard let name = relative(record + 4, indirectable: false) else {
            output.line("casepayload", String(k), "0", indirect ? "1" : "0", "-", "-")
            continue
        }
        let length = mangledNameLength(name)
        let payload = length == 0 ? nil : getTypeByMangledNameInContext(
            name.assumingMemoryBound(to: UInt8.self), UInt(length), descriptor, nil)
        guard let payload else {
            output.line("casepayload", String(k), "1", indirect ? "1" : "0", "?", "?")
            continue
        }
        let payloadType = unsafeBitCast(payload, to: Any.Type.self)
        let size = valueLayout(payloadType).map { String($0.size) } ?? "-"
        output.line("casepayload", String(k), "1", indirect ? "1" : "0", _typeName(payloadType, qualified: true), size)
    }
}
