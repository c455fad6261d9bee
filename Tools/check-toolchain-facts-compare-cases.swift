// Enum cases against the runtime: names from the case name the runtime reports for a value of
// each tag, payload types and sizes from the payload metadata the runtime resolves from each
// case's loaded field record (as Mirror does), `indirect` from that record's flag.

func compareCases(_ type: Object, runtime: Observed?, resolved: Bool, generic: Bool, instance: Bool, missing: String, tally: Tally) {
    let name = string(type["name"]) ?? "?"
    let cases = type["cases"] as? [Object] ?? []
    if cases.isEmpty { return }
    let runtimeCases = resolved ? (runtime?.lines["case"] ?? []) : []
    let payloads = resolved ? (runtime?.lines["casepayload"] ?? []) : []
    let count = resolved ? runtime?.first("casecount")?.first : nil
    if let count, count != String(cases.count) {
        tally.compare(name, "case count", stated: String(cases.count), runtime: count, cause: "case count", generic: generic)
    }
    // Imported C enums: the checker does not probe them (no Swift case records).
    let reason = count == nil ? (resolved ? "imported C enum: no case records to ask" : missing) : missing
    for (k, enumCase) in cases.enumerated() {
        let caseName = string(enumCase["name"]) ?? "?"
        let label = "case \(caseName)"
        if let observed = runtimeCases.first(where: { $0.first == String(k) }), observed[1] != "?" {
            tally.compare(name, "\(label).name", stated: caseName, runtime: observed[1], cause: "case name differs", generic: generic)
        } else {
            tally.notCheckable(count == nil ? reason : "case tag not readable from a zeroed value", generic: generic)
        }
        // observed: index, has payload, indirect, payload type name, payload size
        let payload = payloads.first { $0.first == String(k) }
        let indirect = enumCase["indirect"] as? Bool ?? false
        if let payload {
            tally.compare(name, "\(label).indirect", stated: indirect ? "1" : "0", runtime: payload[2],
                          cause: "case indirect differs", generic: generic)
        } else {
            tally.notCheckable(reason, generic: generic)
        }
        let payloadType = string(enumCase["payloadType"])
        if payloadType == "<unresolved>" {
            tally.unknown("case payloadType", generic: generic)
        } else if let payload, payload[3] != "?", !instance || payloadType == nil || payload[1] == "0" {
            let stated = payloadType ?? "(no payload)"
            let verdict = payload[1] == "0" ? (stated, "(no payload)") : nameVerdict(stated: stated, runtime: [payload[3]])!
            tally.compare(name, "\(label).payloadType", stated: verdict.0, runtime: verdict.1,
                          cause: "case payload type differs", generic: generic)
        } else if payloadType != nil {
            tally.notCheckable(payload == nil ? reason : instance ? "generic: the instance spells arguments, not parameters" : "the runtime cannot resolve the payload's type", generic: generic)
        }
        guard payloadType != nil, payloadType != "<unresolved>" else { continue }
        if let size = int(enumCase["payloadSize"]) {
            // An indirect payload is stored as a reference to its box.
            let runtimeSize = payload.map { $0[2] == "1" ? String(MemoryLayout<UnsafeRawPointer>.size) : $0[4] }
            if let runtimeSize, runtimeSize != "?", runtimeSize != "-" {
                tally.compare(name, "\(label).payloadSize", stated: String(size), runtime: runtimeSize,
                              cause: "case payload size", generic: generic)
            } else {
                tally.notCheckable(payload == nil ? reason : "the runtime cannot resolve the payload's type", generic: generic)
            }
        } else {
            tally.unknown("case payloadSize", generic: generic)
        }
    }
}

/// An enum's layout strategy and tag bytes from the runtime's own numbers: the payload cases are
/// those whose field record names a payload type, and the tag bytes are what the value witness
/// table's size leaves after the largest payload (an indirect payload is a reference). The tag's
/// spare bits have no runtime query (they live in the value witnesses' code).
func compareEnumLayout(_ type: Object, runtime: Observed?, generic: Bool, missing: String, tally: Tally) {
    let name = string(type["name"]) ?? "?"
    let cases = type["cases"] as? [Object] ?? []
    let payloads = runtime?.lines["casepayload"] ?? []
    let complete = runtime?.first("casecount")?.first == String(payloads.count) && payloads.count == cases.count
    let reason = runtime == nil ? missing : "the runtime's case records are incomplete (an imported C enum)"
    let payloadCases = payloads.filter { $0[1] == "1" }
    if let strategy = string(type["enumStrategy"]) {
        if complete {
            let runtimeStrategy = payloadCases.isEmpty ? "no-payload" : payloadCases.count == 1 ? "single-payload" : "multi-payload"
            tally.compare(name, "enumStrategy", stated: strategy, runtime: runtimeStrategy, cause: "enum strategy", generic: generic)
        } else {
            tally.notCheckable(reason, generic: generic)
        }
    }
    if let tagBytes = int(type["enumTagBytes"]) {
        let sizes = payloadCases.map { $0[2] == "1" ? MemoryLayout<UnsafeRawPointer>.size : Int($0[4]) }
        if complete, let size = runtime?.first("layout").flatMap({ Int($0[0]) }), !sizes.contains(where: { $0 == nil }) {
            let largest = sizes.compactMap { $0 }.max() ?? 0
            tally.compare(name, "enumTagBytes", stated: String(tagBytes), runtime: String(size - largest),
                          cause: "enum tag bytes", generic: generic)
        } else {
            tally.notCheckable(complete ? "the runtime cannot resolve a payload's type" : reason, generic: generic)
        }
    }
    if type["enumTagSpareBits"] != nil {
        tally.notCheckable("enum tag spare bits: no runtime query", generic: generic)
    }
}
