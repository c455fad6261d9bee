/// What `typeinfo layout` says of an enum's bytes, from the computed layout's strategy and the
/// cases' payload sizes: a Swift enum's payloads all start at offset 0, and any extra tag bytes
/// follow the largest payload, so `size - largest payload` is the extra tag.
public struct EnumLayoutSummary: Hashable, Sendable, Codable {
    /// How the cases share storage, or `nil` when no computed layout said.
    public var strategy: EnumStrategy?
    /// The cases in declaration order.
    public var cases: [Case]
    /// The size of the largest payload, or `nil` when a payload's size is unknown or there is
    /// no payload.
    public var largestPayload: Int?
    /// Bytes after the largest payload that hold the extra tag, or `nil` when not known
    /// (no strategy, an unknown payload size or size).
    public var extraTagBytes: Int?

    /// One case.
    public struct Case: Hashable, Sendable, Codable {
        /// The case name.
        public var name: String
        /// The payload type, or `nil` for a case without payload.
        public var payloadType: String?
        /// The payload's size in bytes, where known.
        public var payloadSize: Int?
        /// Whether the payload is boxed (`indirect`).
        public var indirect: Bool
    }

    /// The summary of an enum's layout, or `nil` for other kinds.
    ///
    /// - Parameter layout: the type.
    public init?(_ layout: TypeLayout) {
        guard layout.kind == .enum else { return nil }
        strategy = layout.enumStrategy
        cases = layout.cases.map { Case(name: $0.name, payloadType: $0.payloadType, payloadSize: $0.payloadSize, indirect: $0.indirect) }
        let payloads = cases.filter { $0.payloadType != nil }
        let sizes = payloads.compactMap(\.payloadSize)
        largestPayload = sizes.count == payloads.count ? sizes.max() : nil
        extraTagBytes = nil
        guard let strategy, let size = layout.size else { return }
        switch strategy {
        case .noPayload:
            if payloads.isEmpty { extraTagBytes = size }
        case .singlePayload, .multiPayload:
            if let largest = largestPayload, size >= largest { extraTagBytes = size - largest }
        }
    }

    /// The text-report lines, each without indentation or newline.
    func textLines(stride: Int?, size: Int?) -> [String] {
        var lines: [String] = []
        let count = "\(cases.count) case\(cases.count == 1 ? "" : "s")"
        lines.append("enum layout: \(strategy.map { "\($0.rawValue), " } ?? "")\(count)")
        for item in cases {
            var line = "case \(item.name)"
            if let payload = item.payloadType {
                line += ": \(item.indirect ? "indirect " : "")\(payload)"
                line += item.payloadSize.map { "  (payload \(LayoutHoles.bytes($0)))" } ?? "  (payload size unknown)"
            }
            lines.append(line)
        }
        guard let tag = extraTagBytes else { return lines }
        var bytes: String
        if let largest = largestPayload, strategy != .noPayload {
            bytes = "payload bytes 0..<\(largest) (the largest payload), "
            bytes += tag == 0 ? "no extra tag bytes (the case is told by the payload's spare bits or unused values)"
                : "extra tag \(LayoutHoles.bytes(tag)) at offset \(largest)"
        } else {
            bytes = tag == 0 ? "no bytes: a single case needs no tag" : "the whole value (\(LayoutHoles.bytes(tag))) is the tag"
        }
        if let stride, let size, stride > size { bytes += ", tail padding \(LayoutHoles.bytes(stride - size))" }
        lines.append(bytes)
        return lines
    }
}
