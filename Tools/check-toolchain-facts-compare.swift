// Every stated fact of one dump against what the runtime said in the checker process.
import Foundation

/// What the checker printed for one type: each observation's fields by its key, in order.
struct Observed {
    var lines: [String: [[String]]] = [:]
    var finished = false
    func first(_ key: String) -> [String]? { lines[key]?.first }
}

/// The checker's output: types it finished, and the ones whose check the process did not survive.
func readObservations(_ path: String) -> (types: [Int: Observed], crashed: Set<Int>) {
    var types: [Int: Observed] = [:]
    var crashed = Set<Int>()
    var current: Int?
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
        let parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        switch parts[0] {
        case "B":
            if let open = current { crashed.insert(open) }
            current = Int(parts[1])
            if let index = current { types[index] = Observed() }
        case "E":
            if let index = current { types[index]?.finished = true }
            current = nil
        case "CRASH":
            if let index = Int(parts[1]) { crashed.insert(index) }
            current = nil
        case "DONE":
            current = nil
        default:
            if let index = current { types[index, default: Observed()].lines[parts[0], default: []].append(Array(parts.dropFirst())) }
        }
    }
    if let open = current { crashed.insert(open) }
    for index in crashed { types[index]?.finished = false }
    return (types, crashed)
}

/// Why a type found only by its descriptor symbols has no checkable layout.
let noMetadata = "no metadata to look up (private protocol, or no metadata record or accessor); the image's own descriptor symbols spell this mangling"

/// Verdicts, counted by cause.
final class Tally {
    var stated = 0, checked = 0, wrong = 0, notCheckable = 0
    var unknownGeneric = 0, unknownNonGeneric = 0, statedNonGeneric = 0
    var wrongByCause: [String: Int] = [:]
    var notCheckableByReason: [String: Int] = [:]
    var unknownByFact: [String: Int] = [:]
    var wrongFacts: [Object] = []
    var crashedTypes: [String] = []
    var viaAccessor = 0
    var genericUnresolved: [String] = []
    var dwarfTypes = 0, dwarfFacts = 0
    let image: String
    init(image: String) { self.image = image }

    func unknown(_ fact: String, generic: Bool) {
        if generic { unknownGeneric += 1 } else { unknownNonGeneric += 1 }
        unknownByFact[(generic ? "generic " : "") + fact, default: 0] += 1
    }
    func stating(generic: Bool) {
        stated += 1
        if !generic { statedNonGeneric += 1 }
    }
    func notCheckable(_ reason: String, generic: Bool) {
        stating(generic: generic)
        notCheckable += 1
        notCheckableByReason[reason, default: 0] += 1
    }
    /// A stated fact compared with the runtime's value.
    func compare(_ type: String, _ fact: String, stated: String, runtime: String, cause: String, generic: Bool) {
        stating(generic: generic)
        checked += 1
        if stated != runtime {
            wrong += 1
            wrongByCause[cause, default: 0] += 1
            wrongFacts.append(["image": image, "type": type, "fact": fact, "stated": stated, "runtime": runtime, "cause": cause])
        }
    }

    var json: Object {
        let nonGenericFacts = statedNonGeneric + unknownNonGeneric
        return [
            "image": image, "stated": stated, "checked": checked, "wrong": wrong, "notCheckable": notCheckable,
            "unknownGeneric": unknownGeneric, "unknownNonGeneric": unknownNonGeneric,
            "statedNonGeneric": statedNonGeneric,
            "unknownRateNonGeneric": nonGenericFacts == 0 ? 0 : Double(unknownNonGeneric) / Double(nonGenericFacts),
            "wrongByCause": wrongByCause, "notCheckableByReason": notCheckableByReason,
            "unknownByFact": unknownByFact, "wrongFacts": wrongFacts, "crashedTypes": crashedTypes,
            "resolvedViaAccessor": viaAccessor, "dwarfTypes": dwarfTypes, "genericUnresolved": genericUnresolved,
        ]
    }
}

/// The kind a dump states, as the runtime's metadata kind (class metadata has kind 0 without
/// Objective-C interop; a protocol is looked up as its existential).
func expectedKind(_ kind: String) -> String {
    switch kind {
    case "struct": return "200"
    case "enum": return "201"
    case "optional": return "202"
    case "foreignClass": return "203"
    case "class": return "0"
    case "protocol": return "303"
    default: return kind
    }
}

func compareType(_ type: Object, observed: Observed?, crashed: Bool, loadError: String?, tally: Tally) {
    let generic = isInGenericContext(type)
    let name = string(type["name"]) ?? "?"
    let kind = string(type["kind"]) ?? "?"
    let mangled = string(type["mangledName"])
    let runtime = observed.flatMap { $0.finished ? $0 : nil }
    let resolved = ["1", "2", "3"].contains(runtime?.first("resolved")?.first ?? "0")
    // A generic type is asked through one instance (route 3): every fact it states must hold for
    // that instance too, except the ones that spell its parameters (names, the superclass,
    // manglings, payload types) and conformances, which may be conditional.
    let instance = runtime?.first("resolved")?.first == "3"
    if crashed { tally.crashedTypes.append(name) }
    // Why a fact of this type has no runtime value.
    let missing: String = crashed ? "the runtime crashed on this type" :
        runtime == nil ? (loadError != nil ? "the image cannot be loaded" : "not run") :
        generic && !instance ? "generic: no instance to ask" :
        instance ? "generic: the instance spells arguments, not parameters" :
        mangled == nil ? "no mangling to look the type up by" :
        resolved ? "the runtime gives no value" :
        ["descriptor", "symbol"].contains(runtime?.first("resolved")?.first ?? "") ? noMetadata :
        "the mangling does not resolve"

    func check(_ fact: String, _ stated: String, _ value: String?, cause: String) {
        if let value, value != "-" {
            tally.compare(name, fact, stated: stated, runtime: value, cause: cause, generic: generic)
        } else {
            tally.notCheckable(missing, generic: generic)
        }
    }
    func checkNumber(_ fact: String, _ stated: Any?, _ value: String?, cause: String, present: Bool = true) {
        if let number = int(stated) {
            check(fact, String(number), resolved ? value : nil, cause: cause)
        } else if present {
            tally.unknown(fact, generic: generic)
        }
    }

    // name: the runtime's own name of the resolved type, else the runtime demangler's reading of the mangling.
    // A type in an anonymous context (a private type of an optimised image) has no name the
    // runtime can print; the runtime demangler's reading of the mangling that gave its metadata does.
    // The runtime's names of the type: `_typeName` of its metadata, and the runtime demangler's
    // reading of the mangling that gave that metadata (or, unresolved, of the stated mangling).
    let demangled = runtime?.first("demangled")?.first
    let candidates = ((resolved && !instance ? [runtime?.first("typename")?.first] : []) + [demangled]).compactMap { $0 }.filter { $0 != "-" }
    if runtime?.first("resolved")?.first == "2" { tally.viaAccessor += 1 }
    if instance, let bound = runtime?.first("genericresolved"), bound.count >= 3, !name.contains(" where ") {
        // The instance's `_typeName` against the stated name with its parameters replaced by the
        // instance's arguments (`A`, `B`: depth 0, indices 0 and 1, as the demangler names them).
        let verdict = nameVerdict(stated: substitutingParameters(in: name, with: Array(bound.dropFirst(2))), runtime: [bound[1]])!
        tally.compare(name, "name", stated: verdict.stated, runtime: verdict.runtime, cause: "name differs", generic: generic)
    } else if let verdict = nameVerdict(stated: name, runtime: candidates), runtime != nil {
        tally.compare(name, "name", stated: verdict.stated, runtime: verdict.runtime, cause: "name differs", generic: generic)
    } else {
        tally.notCheckable(missing, generic: generic)
    }
    let route = runtime?.first("resolved")?.first
    let descriptorOnly = route == "descriptor"
    if let mangled {
        if descriptorOnly || route == "symbol" {
            tally.notCheckable(noMetadata, generic: generic)
        } else if generic, let bound = runtime?.first("genericresolved") {
            if bound.first == "value" {
                tally.notCheckable("generic mangling with a value parameter: no candidate binds it", generic: generic)
            } else if bound.first == "1" {
                tally.compare(name, "mangledName", stated: mangled, runtime: mangled, cause: "mangling does not resolve", generic: generic)
            } else {
                tally.notCheckable("generic mangling: no candidate arguments make it resolve (requirements not met, or the mangling names no type)", generic: generic)
                tally.genericUnresolved.append("\(name)\t\(mangled)")
            }
        } else if generic || runtime == nil {
            tally.notCheckable(missing, generic: generic)
        } else {
            tally.compare(name, "mangledName", stated: mangled, runtime: resolved ? mangled : "(does not resolve)",
                          cause: "mangling does not resolve", generic: generic)
        }
    } else {
        tally.unknown("mangledName", generic: generic)
    }
    // Optional's metadata kind (0x202) is one of the runtime's enum kinds.
    let runtimeKind = runtime?.first("metakind")?.first.map { kind == "enum" && $0 == "202" ? "201" : $0 }
    check("kind", expectedKind(kind), resolved ? runtimeKind : nil, cause: "kind differs")
    if let module = string(type["module"]) {
        check("module", module, resolved || descriptorOnly ? runtime?.first("module")?.first : nil, cause: "module differs")
    } else {
        tally.unknown("module", generic: generic)
    }
    for _ in type["genericParameters"] as? [String] ?? [] {
        tally.notCheckable("generic parameters: no runtime query for an unbound type", generic: generic)
    }
    if kind == "protocol" { return }

    let layout = runtime?.first("layout")
    checkNumber("size", type["size"], layout?[0], cause: "size")
    checkNumber("alignment", type["alignment"], layout?[1], cause: "alignment")
    checkNumber("stride", type["stride"], layout?[2], cause: "stride")
    checkNumber("extraInhabitants", type["extraInhabitants"], layout?[3], cause: "extra inhabitants")
    compareEnumLayout(type, runtime: resolved ? runtime : nil, generic: generic, missing: missing, tally: tally)
    if kind == "class" {
        let objectLayout = runtime?.first("instance")
        checkNumber("instanceSize", type["instanceSize"], objectLayout?[0], cause: "instance size")
        checkNumber("instanceAlignment", type["instanceAlignment"], objectLayout?[1], cause: "instance alignment")
        let runtimeSuperclass = runtime?.first("superclass")?.first
        if let superclass = string(type["superclass"]) {
            let verdict = resolved && !instance ? runtimeSuperclass.flatMap { nameVerdict(stated: superclass, runtime: [$0]) } : nil
            check("superclass", verdict?.stated ?? superclass, verdict?.runtime, cause: "superclass differs")
        } else if let runtimeSuperclass, runtimeSuperclass != "-", !instance {
            tally.unknown("superclass", generic: generic)
        }
    }
    let conformances = runtime?.lines["conforms"] ?? []
    for protocolName in type["conformances"] as? [String] ?? [] {
        let observedConformance = conformances.first { $0.first == protocolName }
        if let value = observedConformance?[1], value != "?" {
            tally.compare(name, "conforms to \(protocolName)", stated: "1", runtime: value,
                          cause: "conformance not found", generic: generic)
        } else {
            tally.notCheckable(runtime == nil || generic || !resolved ? (instance ? "generic: a conformance may be conditional" : missing) : "protocol's mangling unknown", generic: generic)
        }
    }
    compareFields(type, runtime: runtime, resolved: resolved, generic: generic, instance: instance, missing: missing, tally: tally)
    compareCases(type, runtime: runtime, resolved: resolved, generic: generic, instance: instance, missing: missing, tally: tally)
}

func compareFields(_ type: Object, runtime: Observed?, resolved: Bool, generic: Bool, instance: Bool, missing: String, tally: Tally) {
    let name = string(type["name"]) ?? "?"
    let fields = type["fields"] as? [Object] ?? []
    if fields.isEmpty { return }
    let runtimeFields = resolved ? (runtime?.lines["field"] ?? []) : []
    let manglings = runtime?.lines["fieldmangled"] ?? []
    let walked = resolved && runtime?.first("fieldwalk")?.first == "1"
    let first = runtimeFields.count - fields.count
    if walked && first < 0 {
        tally.compare(name, "field count", stated: String(fields.count), runtime: String(runtimeFields.count),
                      cause: "field count", generic: generic)
    }
    let reason = walked ? "field list differs from the runtime's" : missing
    for (j, field) in fields.enumerated() {
        let fieldName = string(field["name"]) ?? "?"
        let label = "field \(fieldName)"
        let observed: [String]? = walked && first >= 0 ? runtimeFields[first + j] : nil
        let typeName = string(field["type"]) ?? "<unresolved>"
        // The runtime's own field walk gives `()` for a field type it cannot resolve (builtin
        // literal and vector types, types in anonymous contexts): no value to compare then.
        let runtimeLacksType = observed?[5] == "()" && normalizedName(typeName) != "()"
        func check(_ fact: String, _ stated: String, _ value: String?, cause: String, needsType: Bool = false) {
            if needsType && runtimeLacksType {
                tally.notCheckable("the runtime cannot resolve the field's type", generic: generic)
            } else if value == "-" {
                tally.notCheckable("the field's type has no value witness table (a block type)", generic: generic)
            } else if let value {
                tally.compare(name, "\(label).\(fact)", stated: stated, runtime: value, cause: cause, generic: generic)
            } else {
                tally.notCheckable(reason, generic: generic)
            }
        }
        // observed: index, name, offset, isVar, isStrong, type name, size, alignment, metadata
        check("name", fieldName, observed?[1], cause: "field name differs")
        check("isVar", (field["isVar"] as? Bool ?? false) ? "1" : "0", observed?[3], cause: "field var/let")
        check("ownership", string(field["ownership"]) == "strong" ? "strong" : "not strong",
              observed.map { $0[4] == "1" ? "strong" : "not strong" }, cause: "field ownership")
        if let offset = int(field["offset"]) {
            check("offset", String(offset), observed?[2], cause: "field offset")
        } else {
            tally.unknown("field offset", generic: generic)
        }
        if let size = int(field["size"]) {
            check("size", String(size), observed?[6], cause: "field size", needsType: true)
        } else {
            tally.unknown("field size", generic: generic)
        }
        if let alignment = int(field["alignment"]) {
            check("alignment", String(alignment), observed?[7], cause: "field alignment", needsType: true)
        } else {
            tally.unknown("field alignment", generic: generic)
        }
        let mangling = manglings.first { $0.first == String(j) }
        if typeName == "<unresolved>" {
            tally.unknown("field type", generic: generic)
        } else if let observed, !instance {
            // With a mangling that resolved to the field's very metadata, its demangled reading is
            // the runtime's spelling too (`P & AnyObject` for what `_typeName` prints `P`).
            let ownership = string(field["ownership"]) ?? "strong"
            var spellings = [observed[5]]
            if let spelled = spellingAnonymousContexts(observed[5]) { spellings.append(spelled) }
            if let mangling, mangling[1] == "same", mangling[3] != "-" {
                spellings.append(ownership == "strong" ? mangling[3] : String(mangling[3].drop { $0 != " " }.dropFirst()))
            }
            let verdict = nameVerdict(stated: typeName, runtime: spellings)!
            check("type", verdict.stated, verdict.runtime, cause: "field type name differs", needsType: true)
        } else if let demangled = mangling?[3], demangled != "-" {
            // Generic context: the runtime demangler's reading of the stated mangling.
            let ownership = string(field["ownership"]) ?? "strong"
            let prefix = ownership == "strong" ? "" : ownership + " "
            check("type", normalizedName(prefix + typeName), normalizedName(demangled), cause: "field type name differs")
        } else {
            tally.notCheckable(generic ? missing : reason, generic: generic)
        }
        if field["mangledType"] is String {
            let privateMangling = (string(field["mangledType"]) ?? "").range(of: "33_[0-9A-F]{32}LL", options: .regularExpression) != nil
            if let mangling, mangling[1] == "unresolved", observed?[5].contains("(unknown context at $") == true || privateMangling {
                tally.notCheckable("field type contains a private type the runtime's lookup cannot find", generic: generic)
            } else if let mangling, walked || mangling[1] != "same", !generic {
                let verdict = mangling[1] == "same" ? "resolves to the field's type" :
                    mangling[1] == "unresolved" ? "does not resolve" : "resolves to \(mangling[2])"
                check("mangledType", "resolves to the field's type", verdict,
                      cause: mangling[1] == "unresolved" ? "field mangling does not resolve" : "field mangling names another type",
                      needsType: true)
            } else {
                tally.notCheckable(generic ? missing : reason, generic: generic)
            }
        } else {
            tally.unknown("field mangledType", generic: generic)
        }
    }
}

func compareCommand(dump: String, observed: String, out: String, flip kind: String?, loadError: String?) {
    var all = types(ofDump: dump)
    if let kind {
        guard let flipped = flip(kind, in: &all) else { fail("self-test: nothing to falsify as \(kind) in \(dump)") }
        FileHandle.standardError.write("self-test: falsified \(flipped) (expect one more '\(flips[kind]!.cause)')\n".data(using: .utf8)!)
    }
    let image = ((readJSON(dump) as? Object)?["image"] as? Object).flatMap { string($0["path"]) } ?? dump
    let (runtime, crashed) = readObservations(observed)
    anonymousSpellings = spellingsOfAnonymousContexts(runtime)
    let tally = Tally(image: image)
    for (index, type) in all.enumerated() {
        // C and C++ types read from DWARF: the Swift runtime knows nothing of them (pahole is
        // their oracle, docs/performance.md's layout views).
        if string(type["source"]) == "dwarf" {
            tally.dwarfTypes += 1
            continue
        }
        compareType(type, observed: runtime[index], crashed: crashed.contains(index), loadError: loadError, tally: tally)
    }
    var result = tally.json
    result["types"] = all.count - tally.dwarfTypes
    if let loadError { result["loadError"] = loadError }
    writeJSON(result, to: out)
}
