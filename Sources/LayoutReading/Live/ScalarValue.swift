import BinaryInfo
import TypeLayout

/// The standard library's fixed-size scalars, by their manglings: read by size and signedness.
enum ScalarValue {
    private enum Form {
        case signed(Int)
        case unsigned(Int)
        case float32, float64, boolean
    }

    private static let forms: [String: Form] = [
        "Si": .signed(8), "s4Int8V": .signed(1), "s5Int16V": .signed(2), "s5Int32V": .signed(4), "s5Int64V": .signed(8),
        "Su": .unsigned(8), "s5UInt8V": .unsigned(1), "s6UInt16V": .unsigned(2), "s6UInt32V": .unsigned(4), "s6UInt64V": .unsigned(8),
        "Sf": .float32, "Sd": .float64, "Sb": .boolean,
    ]

    /// The scalar of type `mangling` at `address`, or nil when `mangling` is not one.
    static func read(mangling: String, at address: UInt64, in memory: TargetMemory) throws(BinaryInfoError) -> ObjectValue? {
        guard let form = forms[mangling] else { return nil }
        let what = "a \(SwiftDemangler.typeName(mangling: mangling) ?? mangling)"
        switch form {
        case .signed(1): return .signed(Int64(try memory.read(Int8.self, at: address, what: what)))
        case .signed(2): return .signed(Int64(try memory.read(Int16.self, at: address, what: what)))
        case .signed(4): return .signed(Int64(try memory.read(Int32.self, at: address, what: what)))
        case .signed: return .signed(try memory.read(Int64.self, at: address, what: what))
        case .unsigned(1): return .unsigned(UInt64(try memory.read(UInt8.self, at: address, what: what)))
        case .unsigned(2): return .unsigned(UInt64(try memory.read(UInt16.self, at: address, what: what)))
        case .unsigned(4): return .unsigned(UInt64(try memory.read(UInt32.self, at: address, what: what)))
        case .unsigned: return .unsigned(try memory.read(UInt64.self, at: address, what: what))
        case .float32: return .floatingPoint(Double(Float(bitPattern: try memory.read(UInt32.self, at: address, what: what))))
        case .float64: return .floatingPoint(Double(bitPattern: try memory.read(UInt64.self, at: address, what: what)))
        case .boolean:
            let byte = try memory.read(UInt8.self, at: address, what: what)
            // A Bool is 0 or 1; anything else is not a Bool's byte.
            return byte <= 1 ? .boolean(byte == 1) : .unknown("a Bool byte of \(byte)")
        }
    }
}
