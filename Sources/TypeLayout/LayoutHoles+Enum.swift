/// How an enum's cases share its storage, as `typeinfo layout` shows it in place of holes (pahole
/// and Rust's `-Zprint-type-sizes` habit): the strategy, where the tag lives, extra inhabitants,
/// and each case's payload size. Every fact is the layout's own; unknown ones stay `nil`.
public struct EnumLayoutSummary: Hashable, Sendable, Codable {
    /// One case.
    public struct Case: Hashable, Sendable, Codable {
        /// The case name.
        public var name: String
        /// The payload type, or `nil` for a case without payload.
        public var payloadType: String?
        /// The payload's size in bytes, where known.
        public var payloadSize: Int?
    }

    /// No-payload, single-payload or multi-payload, where known.
    public var strategy: EnumStrategy?
    /// Tag bytes after the largest payload (the whole value for a no-payload enum).
    public var tagBytes: Int?
    /// For multi-payload enums: the payload bits holding the tag (``SpareBitMask`` spelling).
    public var tagSpareBits: String?
    /// The number of bits set in ``tagSpareBits``.
    public var tagSpareBitCount: Int?
    /// The enum's own extra inhabitants (what an enclosing `Optional` can use).
    public var extraInhabitants: Int?
    /// The cases in declaration order (payload cases first).
    public var cases: [Case]

    /// The summary of an enum's layout.
    public init(_ layout: TypeLayout) {
        strategy = layout.enumStrategy
        tagBytes = layout.enumTagBytes
        tagSpareBits = layout.enumTagSpareBits.map(SpareBitMask.hex)
        tagSpareBitCount = layout.enumTagSpareBits.map(SpareBitMask.bitCount)
        extraInhabitants = layout.extraInhabitants
        cases = layout.cases.map { Case(name: $0.name, payloadType: $0.payloadType, payloadSize: $0.payloadSize) }
    }

    /// The text lines (two-space indented, each ending in a newline).
    func textLines() -> String {
        let value = { (number: Int?) in number.map(String.init) ?? "?" }
        var out = "  enum layout: \(strategy?.rawValue ?? "?"), tag bytes \(value(tagBytes))"
        if strategy == .multiPayload {
            if let count = tagSpareBitCount, let mask = tagSpareBits {
                out += count == 0 ? ", no spare bits used" : ", tag in \(count) spare bit\(count == 1 ? "" : "s") (mask \(mask))"
            } else {
                out += ", spare bits used ?"
            }
        }
        out += ", extra inhabitants \(value(extraInhabitants))\n"
        for enumCase in cases {
            guard let payload = enumCase.payloadType else {
                out += "  case \(enumCase.name)\n"
                continue
            }
            out += "  case \(enumCase.name)(\(payload))  payload \(value(enumCase.payloadSize))\n"
        }
        return out
    }
}
