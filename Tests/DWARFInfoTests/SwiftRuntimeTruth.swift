import TypeLayout

/// The Swift fixture's own printout (MemoryLayout and `_forEachField`) as layouts with
/// `source` `.runtime`: the metadata witness the DWARF layouts are compared with.
enum SwiftRuntimeTruth {
    static func layouts(from output: String) throws -> [TypeLayout] {
        var layouts: [TypeLayout] = []
        var positions: [String: Int] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            switch (parts.first, parts.count) {
            case ("type", 6):
                guard let kind = TypeKind(rawValue: parts[2]), let size = Int(parts[3]),
                    let alignment = Int(parts[4]), let stride = Int(parts[5])
                else {
                    throw FixtureError(description: "fixture line not understood: \(line)")
                }
                positions[parts[1]] = layouts.count
                layouts.append(
                    TypeLayout(
                        name: parts[1], kind: kind, size: size, alignment: alignment, stride: stride, source: .runtime
                    ))
            case ("field", 4):
                guard let position = positions[parts[1]], let offset = Int(parts[3]) else {
                    throw FixtureError(description: "fixture line not understood: \(line)")
                }
                layouts[position].fields.append(FieldLayout(name: parts[2], type: "", offset: offset))
            case ("superclass", 3):
                guard let position = positions[parts[1]] else {
                    throw FixtureError(description: "fixture line not understood: \(line)")
                }
                layouts[position].superclass = parts[2]
            default:
                throw FixtureError(description: "fixture line not understood: \(line)")
            }
        }
        return layouts
    }
}
