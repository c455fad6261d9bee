import TypeLayout

extension LayoutNote {
    /// A note of ``LoweringClient``, which (with the worker behind it) speaks text: the two kinds
    /// a reading narrows by (one type's failure, the count of types given up) are told by the
    /// fixed parts of the client's text, here and only here; any other is ``lowering(_:)``.
    public init(loweringClientNote text: String) {
        let failureSuffix = ": its computed layout is unknown"
        if text.hasPrefix("type lowering gave up after ") {
            self = .loweringGaveUp(text)
        } else if text.hasPrefix("type lowering "), text.hasSuffix(failureSuffix), let start = text.firstRange(of: " on $s") {
            let mangling = text[text.index(after: start.lowerBound)...].dropFirst("on ".count).dropLast(failureSuffix.count)
            self = .loweringFailed(mangling: String(mangling), text: text)
        } else {
            self = .lowering(text)
        }
    }
}
