// The per-image table and the total, and the detail file listing every wrong fact.
import Foundation

func percent(_ part: Int, of whole: Int) -> String {
    whole == 0 ? "0.00%" : String(format: "%.2f%%", 100 * Double(part) / Double(whole))
}

func merge(_ into: inout [String: Int], _ from: Any?) {
    for (key, value) in from as? [String: Any] ?? [:] { into[key, default: 0] += int(value) ?? 0 }
}

func ranked(_ counts: [String: Int]) -> [(String, Int)] {
    counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
}

func summaryCommand(details: String, results: [String], format: String) {
    let keys = ["types", "dwarfTypes", "resolvedViaAccessor", "stated", "checked", "wrong", "notCheckable", "unknownGeneric", "unknownNonGeneric", "statedNonGeneric"]
    var rows: [Object] = []
    var total: [String: Int] = [:]
    var wrongByCause: [String: Int] = [:], notCheckableByReason: [String: Int] = [:], unknownByFact: [String: Int] = [:]
    var wrongFacts: [Object] = []
    var crashed: [String] = []
    var loadErrors: [String] = []
    var genericUnresolved: [String] = []
    for path in results {
        guard let result = readJSON(path) as? Object else { continue }
        rows.append(result)
        for key in keys { total[key, default: 0] += int(result[key]) ?? 0 }
        merge(&wrongByCause, result["wrongByCause"])
        merge(&notCheckableByReason, result["notCheckableByReason"])
        merge(&unknownByFact, result["unknownByFact"])
        wrongFacts += result["wrongFacts"] as? [Object] ?? []
        if let loadError = string(result["loadError"]) { loadErrors.append("\(string(result["image"]) ?? "?"): \(loadError)") }
        genericUnresolved += (result["genericUnresolved"] as? [String] ?? []).map { "\(string(result["image"]) ?? "?")\t\($0)" }
        crashed += (result["crashedTypes"] as? [String] ?? []).map { "\(string(result["image"]) ?? "?"): \($0)" }
    }
    var detail = "# every wrong fact: image, type, fact, stated, runtime, cause\n"
    for fact in wrongFacts {
        detail += tsv(["image", "type", "fact", "stated", "runtime", "cause"].map { string(fact[$0]) ?? "" }) + "\n"
    }
    if !genericUnresolved.isEmpty {
        detail += "# generic types whose mangling no candidate arguments resolve (not counted wrong): image, type, mangling\n"
        detail += genericUnresolved.joined(separator: "\n") + "\n"
    }
    if !crashed.isEmpty { detail += "# types the runtime crashed on\n" + crashed.joined(separator: "\n") + "\n" }
    do { try detail.write(toFile: details, atomically: true, encoding: .utf8) } catch { fail("cannot write \(details): \(error)") }

    let nonGeneric = (total["statedNonGeneric"] ?? 0) + (total["unknownNonGeneric"] ?? 0)
    if format == "json" {
        var summary: Object = ["images": rows.map { row in row.filter { $0.key != "wrongFacts" } }]
        var totals: Object = total
        totals["unknownRateNonGeneric"] = nonGeneric == 0 ? 0 : Double(total["unknownNonGeneric"] ?? 0) / Double(nonGeneric)
        totals["wrongByCause"] = wrongByCause
        totals["notCheckableByReason"] = notCheckableByReason
        totals["unknownByFact"] = unknownByFact
        totals["crashedTypes"] = crashed
        totals["loadErrors"] = loadErrors
        totals["genericUnresolved"] = genericUnresolved
        summary["total"] = totals
        let data = try! JSONSerialization.data(withJSONObject: summary, options: [.prettyPrinted, .sortedKeys])
        print(String(decoding: data, as: UTF8.self))
        return
    }
    print("| image | types | stated | checked | wrong | unknown (generic) | unknown (non-generic) | unknown rate outside generic contexts | not checkable |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    func line(_ name: String, _ r: [String: Int]) {
        let unknown = r["unknownNonGeneric"] ?? 0
        let outside = (r["statedNonGeneric"] ?? 0) + unknown
        print("| \(name) | \(r["types"] ?? 0) | \(r["stated"] ?? 0) | \(r["checked"] ?? 0) | \(r["wrong"] ?? 0) | \(r["unknownGeneric"] ?? 0) | \(unknown) | \(percent(unknown, of: outside)) | \(r["notCheckable"] ?? 0) |")
    }
    for row in rows {
        var counts: [String: Int] = [:]
        for key in keys { counts[key] = int(row[key]) ?? 0 }
        let image = string(row["image"]) ?? "?"
        line(image.replacingAll("/opt/swift/usr/", with: ""), counts)
    }
    line("**total (\(rows.count) images)**", total)
    print("\nC/C++ types read from DWARF, not Swift types and not checked here: \(total["dwarfTypes"] ?? 0)")
    print("Swift types found only through their metadata accessor (the runtime's lookup by name fails): \(total["resolvedViaAccessor"] ?? 0)")
    print("generic types whose mangling no candidate arguments resolve (listed in the details file): \(genericUnresolved.count)")
    print("\nwrong facts by cause:")
    for (cause, count) in ranked(wrongByCause) { print("  \(count)\t\(cause)") }
    print("unknown facts by fact:")
    for (fact, count) in ranked(unknownByFact) { print("  \(count)\t\(fact)") }
    print("not checkable, by reason:")
    for (reason, count) in ranked(notCheckableByReason) { print("  \(count)\t\(reason)") }
    if !crashed.isEmpty { print("types the runtime crashed on: \(crashed.count) (listed in the details file)") }
    for line in loadErrors { print("could not be loaded, every fact not checkable: \(line)") }
    print("every wrong fact: \(details)")
}
