/// Matches an enum's cases between two lists of them. Cases may share a name when their labels
/// differ (`case invalid(String)` and `case invalid(String, file: Path?)` are both `invalid` in
/// the field record), so a case is matched by its name and by how many same-named cases precede it.
struct EnumCaseKey: Hashable {
    let name: String
    let occurrence: Int

    /// The keys of `names`, in order.
    static func keys(_ names: [String]) -> [EnumCaseKey] {
        var seen: [String: Int] = [:]
        return names.map { name in
            let occurrence = seen[name, default: 0]
            seen[name] = occurrence + 1
            return EnumCaseKey(name: name, occurrence: occurrence)
        }
    }

    /// `values` by the key of the name at the same position.
    static func index<Value>(names: [String], values: [Value]) -> [EnumCaseKey: Value] {
        Dictionary(zip(keys(names), values), uniquingKeysWith: { first, _ in first })
    }
}
