// The self-test's falsifications of a dump (Tools/check-toolchain-facts --self-test): the
// comparison must report each as exactly one more wrong fact of its cause.

/// The self-test's falsifications: each changes one stated fact of the first non-generic type
/// that has it, and names the cause the comparison must then report once more.
let flips: [String: (cause: String, apply: (inout Object) -> String?)] = [
    "field-offset": ("field offset", { type in
        guard var fields = type["fields"] as? [Object], let j = fields.firstIndex(where: { int($0["offset"]) != nil }) else { return nil }
        let offset = int(fields[j]["offset"])!
        fields[j]["offset"] = offset + 1
        type["fields"] = fields
        return "field \(string(fields[j]["name"]) ?? "?") offset \(offset) -> \(offset + 1)"
    }),
    "field-name": ("field name differs", { type in
        guard var fields = type["fields"] as? [Object], let name = fields.first.flatMap({ string($0["name"]) }) else { return nil }
        fields[0]["name"] = name + "_"
        type["fields"] = fields
        return "field \(name) renamed \(name)_"
    }),
    "size": ("size", { type in
        guard let size = int(type["size"]), string(type["kind"]) == "struct" else { return nil }
        type["size"] = size + 8
        return "size \(size) -> \(size + 8)"
    }),
    "instance-size": ("instance size", { type in
        guard let size = int(type["instanceSize"]) else { return nil }
        type["instanceSize"] = size + 8
        return "instanceSize \(size) -> \(size + 8)"
    }),
    "extra-inhabitants": ("extra inhabitants", { type in
        guard let count = int(type["extraInhabitants"]) else { return nil }
        type["extraInhabitants"] = count + 1
        return "extraInhabitants \(count) -> \(count + 1)"
    }),
    "name": ("name differs", { type in
        guard let name = string(type["name"]), string(type["kind"]) == "struct" else { return nil }
        type["name"] = name + "y"
        return "renamed \(name)y"
    }),
    "kind": ("kind differs", { type in
        guard string(type["kind"]) == "struct" else { return nil }
        type["kind"] = "enum"
        return "kind struct -> enum"
    }),
    "payload-size": ("case payload size", { type in
        guard var cases = type["cases"] as? [Object], let k = cases.firstIndex(where: { int($0["payloadSize"]) != nil }) else { return nil }
        let size = int(cases[k]["payloadSize"])!
        cases[k]["payloadSize"] = size + 1
        type["cases"] = cases
        return "case \(string(cases[k]["name"]) ?? "?") payloadSize \(size) -> \(size + 1)"
    }),
    "tag-bytes": ("enum tag bytes", { type in
        guard let bytes = int(type["enumTagBytes"]) else { return nil }
        type["enumTagBytes"] = bytes + 1
        return "enumTagBytes \(bytes) -> \(bytes + 1)"
    }),
    "case-name": ("case name differs", { type in
        guard var cases = type["cases"] as? [Object], let name = cases.first.flatMap({ string($0["name"]) }) else { return nil }
        cases[0]["name"] = name + "_"
        type["cases"] = cases
        return "case \(name) renamed \(name)_"
    }),
]

func flip(_ kind: String, in types: inout [Object]) -> String? {
    guard let falsification = flips[kind] else { fail("self-test: no falsification named \(kind)") }
    for (i, type) in types.enumerated() where !isInGenericContext(type) && string(type["source"]) != "dwarf" {
        var changed = type
        if let what = falsification.apply(&changed) {
            types[i] = changed
            return "\(string(type["name"]) ?? "?"): \(what)"
        }
    }
    return nil
}
