/// The facts the C API's `swift_typeinfo_t` lacks: extra inhabitants (from the library's own
/// TypeInfo dump) and, for multi-payload enums, which payload bits hold the case tag (from the
/// library's own enum projection).
extension LoweringSession {
    /// The type's extra inhabitants as RemoteInspection's TypeInfo dump states them
    /// (`(struct size=16 alignment=8 stride=16 num_extra_inhabitants=2147483647 bitwise_takable=1`),
    /// or nil when the dump does not say.
    func extraInhabitants(of typeRef: UInt64) -> Int? {
        guard let dump = context.dump(of: typeRef) else { return nil }
        return Self.extraInhabitants(inDump: dump)
    }

    /// A class reference's extra inhabitants. The library's dump of a reference does not state
    /// them, but its record layout takes the count of the field with the most, and it states a
    /// record's: so the tuple `(Class, ())` (the class's mangling and `_ytt`) is dumped, once its
    /// first element is confirmed to be the very typeref of the class (typerefs are uniqued).
    func referenceExtraInhabitants(mangling: String, typeRef: UInt64) -> Int? {
        guard let tuple = context.typeRef(mangledName: mangling + "_ytt"), context.child(of: tuple, at: 0)?.typeRef == typeRef,
            context.info(of: tuple)?.kind == .tuple
        else { return nil }
        return extraInhabitants(of: tuple)
    }

    /// `num_extra_inhabitants=` of the dump's first line (the type itself, not its fields).
    static func extraInhabitants(inDump dump: String) -> Int? {
        // Bytes, not Characters: this runs once per type on every reading. The type's own line
        // starts the dump at column 0 with `(` (nested lines are indented; the name lines the
        // library prints last start otherwise), and the count is followed by a space
        // (`bitwise_takable=` comes next): a line cut short gives no count.
        let bytes = Array(dump.utf8.prefix { $0 != 0x0A })
        guard bytes.first == UInt8(ascii: "(") else { return nil }
        let key = Array(" num_extra_inhabitants=".utf8)
        guard bytes.count >= key.count,
            let start = (0...(bytes.count - key.count)).first(where: { bytes[$0..<$0 + key.count].elementsEqual(key) })
        else { return nil }
        let digits = bytes[(start + key.count)...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        let after = start + key.count + digits.count
        // The count is a uint32 in the runtime's value witness table.
        guard after < bytes.count, bytes[after] == UInt8(ascii: " "), !digits.isEmpty, digits.count <= 10,
            let count = Int(String(decoding: digits, as: UTF8.self)), count <= Int(UInt32.max)
        else { return nil }
        return count
    }

    /// The bits of a multi-payload enum's payload area (its first `payloadSize` bytes) that hold
    /// the case tag, as a mask in memory order; nil when the library cannot decode the probes.
    ///
    /// An all-zero value is the first payload case with an all-zero payload. Each payload bit is
    /// set alone and the value decoded by the library (`swift_reflection_projectEnumValue`): the
    /// bits that change the case are the spare bits the tag uses. Bits of extra tag bytes, after
    /// the payload, are not spare bits and are not probed.
    func tagSpareBits(of typeRef: UInt64, size: Int, payloadSize: Int) -> [UInt8]? {
        guard payloadSize > 0, payloadSize <= size, size <= ImageMemory.probeCapacity else { return nil }
        var value = [UInt8](repeating: 0, count: size)
        guard let zero = memory.probe(value), let baseCase = context.caseIndex(ofValueAt: zero, typeRef: typeRef) else { return nil }
        var mask = [UInt8](repeating: 0, count: payloadSize)
        for byte in 0..<payloadSize {
            for bit in 0..<8 {
                value[byte] = 1 << UInt8(bit)
                guard let address = memory.probe(value), let decoded = context.caseIndex(ofValueAt: address, typeRef: typeRef) else {
                    return nil
                }
                if decoded != baseCase { mask[byte] |= 1 << UInt8(bit) }
            }
            value[byte] = 0
        }
        return mask
    }
}
