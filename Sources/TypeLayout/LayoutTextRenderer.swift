/// Renders layouts as pahole-like text: one block per type, one row per field.
///
/// The output is meant to be read at a glance and grepped: every type block starts with its
/// kind and qualified name at column 0, every field row is indented, and unknown facts print
/// as `?` rather than being left out. Colour (ANSI escapes) is off unless asked for.
///
/// ```
/// struct Demo.Point  size 24  align 8  stride 24
///   conforms to: Swift.Equatable
///   offset  size  field
///        0     8  var x: Swift.Int
///        8     8  let y: Swift.Double
/// ```
public struct LayoutTextRenderer: Sendable {
    /// What the renderer prints and how.
    public struct Options: Hashable, Sendable {
        /// Wrap kinds, names and unknown values in ANSI colour escapes.
        public var color: Bool
        /// Print the image header (path, file type, architecture, notes) before the types.
        public var showImageHeader: Bool
        /// Print each field's mangled type after its demangled one.
        public var showMangledNames: Bool
        /// Print which reader produced each layout (`runtime`, `metadata`, `dwarf`).
        public var showSource: Bool

        /// Creates options; the defaults give plain text with the image header.
        public init(
            color: Bool = false,
            showImageHeader: Bool = true,
            showMangledNames: Bool = false,
            showSource: Bool = false
        ) {
            self.color = color
            self.showImageHeader = showImageHeader
            self.showMangledNames = showMangledNames
            self.showSource = showSource
        }
    }

    /// The options in effect.
    public var options: Options

    /// Creates a renderer.
    ///
    /// - Parameter options: what to print; plain text by default.
    public init(_ options: Options = Options()) {
        self.options = options
    }

    /// Renders a whole document: the image header (if enabled), then every type, separated by blank lines.
    ///
    /// - Parameter document: the layouts to print.
    /// - Returns: text ending in a newline.
    public func render(_ document: LayoutDocument) -> String {
        var out = ""
        if options.showImageHeader {
            out += renderHeader(document.image, typeCount: document.types.count)
        }
        for (index, type) in document.types.enumerated() {
            if index > 0 || options.showImageHeader { out += "\n" }
            out += render(type)
        }
        return out
    }

    /// Renders the image header: `# path: executable, x86_64, 12 types`, then one `# note:` line per note.
    ///
    /// - Parameters:
    ///   - image: the image summary.
    ///   - typeCount: how many types the document holds.
    /// - Returns: text ending in a newline.
    public func renderHeader(_ image: ImageSummary, typeCount: Int) -> String {
        var facts: [String] = []
        if let fileType = image.fileType { facts.append(fileType.description) }
        if let architecture = image.architecture { facts.append(architecture) }
        if let hasSymbols = image.hasSymbols { facts.append(hasSymbols ? "symbols" : "no symbols") }
        if let hasDebugInfo = image.hasDebugInfo { facts.append(hasDebugInfo ? "debug info" : "no debug info") }
        facts.append(typeCount == 1 ? "1 type" : "\(typeCount) types")
        var out = paint("# \(image.path): " + facts.joined(separator: ", "), .dim) + "\n"
        for note in image.notes {
            out += paint("# note: \(note)", .dim) + "\n"
        }
        return out
    }

    /// Renders one type block: a title line, its superclass, conformances and generic
    /// parameters, then a field table and enum cases.
    ///
    /// - Parameter type: the layout to print.
    /// - Returns: text ending in a newline.
    public func render(_ type: TypeLayout) -> String {
        var out = titleLine(type) + "\n"
        if let superclass = type.superclass {
            out += "  superclass: \(superclass)\n"
        }
        if !type.genericParameters.isEmpty {
            out += "  generic parameters: \(type.genericParameters.joined(separator: ", "))\n"
        }
        if !type.conformances.isEmpty {
            out += "  conforms to: \(type.conformances.joined(separator: ", "))\n"
        }
        if let source = type.source, options.showSource {
            out += "  source: \(source.rawValue)\n"
        }
        if !type.fields.isEmpty {
            out += fieldTable(type.fields, isC: type.source == .dwarf && type.mangledName == nil)
        }
        if let strategy = type.enumStrategy {
            out += "  enum layout: \(strategy.rawValue)" + enumTagDescription(type) + "\n"
        }
        if let extraInhabitants = type.extraInhabitants {
            out += "  extra inhabitants: \(extraInhabitants)\n"
        }
        for enumCase in type.cases {
            out += "  " + caseLine(enumCase) + "\n"
        }
        return out
    }

    // MARK: - Pieces

    /// `, tag bytes 0, tag in 2 spare bits (mask 00000000000000c0)`: where the case is stored.
    private func enumTagDescription(_ type: TypeLayout) -> String {
        var text = ""
        if let tagBytes = type.enumTagBytes { text += ", tag bytes \(tagBytes)" }
        if type.enumStrategy == .multiPayload {
            if let mask = type.enumTagSpareBits {
                let count = SpareBitMask.bitCount(mask)
                text +=
                    count == 0
                    ? ", no spare bits used" : ", tag in \(count) spare bit\(count == 1 ? "" : "s") (mask \(SpareBitMask.hex(mask)))"
            } else {
                text += ", spare bits used ?"
            }
        }
        return text
    }

    private func titleLine(_ type: TypeLayout) -> String {
        // C names from DWARF already say their kind (`struct point`): do not repeat it.
        var line =
            type.name.hasPrefix(type.kind.rawValue + " ")
            ? paint(type.name, .name)
            : paint(type.kind.rawValue, .kind) + " " + paint(type.name, .name)
        // Protocols have no layout of their own; printing "size ?" for them would be noise.
        if type.kind != .protocol {
            line += "  size \(number(type.size))  align \(number(type.alignment))  stride \(number(type.stride))"
        }
        if type.kind == .class || type.instanceSize != nil || type.instanceAlignment != nil {
            line += "  instance size \(number(type.instanceSize))  instance align \(number(type.instanceAlignment))"
        }
        return line
    }

    private func fieldTable(_ fields: [FieldLayout], isC: Bool = false) -> String {
        let offsets = fields.map { field -> String in
            guard let offset = field.offset else { return "?" }
            if let bitOffset = field.bitOffset { return "\(offset):\(bitOffset)" }
            return String(offset)
        }
        let sizes = fields.map { field -> String in
            if let bitWidth = field.bitWidth { return "\(bitWidth)b" }
            return field.size.map(String.init) ?? "?"
        }
        let offsetWidth = max(6, offsets.map(\.count).max() ?? 0)
        let sizeWidth = max(4, sizes.map(\.count).max() ?? 0)
        var out = "  " + pad("offset", offsetWidth) + "  " + pad("size", sizeWidth) + "  field\n"
        for (index, field) in fields.enumerated() {
            let offsetText = pad(offsets[index], offsetWidth)
            let sizeText = pad(sizes[index], sizeWidth)
            out += "  " + (offsets[index] == "?" ? paint(offsetText, .unknown) : offsetText)
            out += "  " + (sizes[index] == "?" ? paint(sizeText, .unknown) : sizeText)
            out += "  " + fieldDeclaration(field, isC: isC) + "\n"
        }
        return out
    }

    private func fieldDeclaration(_ field: FieldLayout, isC: Bool = false) -> String {
        // C members have no var/let or ownership.
        if isC { return paint(field.name, .name) + ": " + field.type }
        var words: [String] = []
        switch field.ownership {
        case .strong: break
        case .weak: words.append("weak")
        case .unowned: words.append("unowned")
        case .unownedUnsafe: words.append("unowned(unsafe)")
        }
        // Unknown: `?`, as every unknown fact prints (the notes say why).
        words.append(field.isVar.map { $0 ? "var" : "let" } ?? "?")
        var text = words.joined(separator: " ") + " " + paint(field.name, .name) + ": " + field.type
        if options.showMangledNames, let mangled = field.mangledType {
            text += "  " + paint("(\(mangled))", .dim)
        }
        return text
    }

    private func caseLine(_ enumCase: EnumCaseLayout) -> String {
        var text = enumCase.indirect ? "indirect case " : "case "
        text += paint(enumCase.name, .name)
        if let payload = enumCase.payloadType {
            // A tuple payload already carries its parentheses.
            text += payload.hasPrefix("(") ? payload : "(\(payload))"
            if let size = enumCase.payloadSize { text += "  " + paint("payload size \(size)", .dim) }
        }
        return text
    }

    private func number(_ value: Int?) -> String {
        guard let value else { return paint("?", .unknown) }
        return String(value)
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    private enum Style: String {
        case kind = "\u{1B}[35m"
        case name = "\u{1B}[1m"
        case unknown = "\u{1B}[33m"
        case dim = "\u{1B}[2m"
    }

    private func paint(_ text: String, _ style: Style) -> String {
        options.color ? style.rawValue + text + "\u{1B}[0m" : text
    }
}
