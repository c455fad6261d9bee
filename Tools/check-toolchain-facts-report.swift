// The comparing side of Tools/check-toolchain-facts (plain Foundation, no typeinfo module, so
// nothing here shares code with what it checks).
//
//   report protocols DUMP.json...              protocol name -> mangling, from every dump
//   report prepare DUMP.json PROTOCOLS OUT     the checker's request list for one image
//   report compare DUMP.json OBSERVED OUT.json [--flip KIND] [--load-error TEXT]
//                                              every stated fact against the runtime's observations
//                                              (--flip: the self-test's falsification of one fact)
//   report summary [--format text|json] DETAILS RESULT.json...
//                                              per-image table and total; every wrong fact to DETAILS
import Foundation

typealias Object = [String: Any]

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(("check-toolchain-facts: " + message + "\n").data(using: .utf8)!)
    exit(1)
}

func readJSON(_ path: String) -> Any {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    do { return try JSONSerialization.jsonObject(with: data) } catch { fail("\(path): \(error)") }
}

func writeJSON(_ value: Any, to path: String) {
    do {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: path))
    } catch { fail("cannot write \(path): \(error)") }
}

func types(ofDump path: String) -> [Object] {
    guard let document = readJSON(path) as? Object, let types = document["types"] as? [Object] else {
        fail("\(path) is not a layout document")
    }
    return types
}

/// A type is in a generic context when it or an enclosing context has generic parameters; its
/// printed name then carries an argument list.
func isInGenericContext(_ type: Object) -> Bool {
    let parameters = type["genericParameters"] as? [String] ?? []
    let name = type["name"] as? String ?? ""
    return !parameters.isEmpty || name.contains("<")
}

func string(_ value: Any?) -> String? { value as? String }
func int(_ value: Any?) -> Int? { (value as? NSNumber)?.intValue }

func tsv(_ parts: [String]) -> String {
    parts.map { String($0.map { $0 == "\t" || $0 == "\n" ? " " : $0 }) }.joined(separator: "\t")
}

/// The generic parameters a printed name binds (`A`, `B`: depth 0; `A1`: depth 1, as the
/// demangler names them), counted when all are at depth 0; nil otherwise.
func depthZeroParameters(_ name: String) -> Int? {
    let expression = try! NSRegularExpression(pattern: #"(?<=[<, ])([A-Z])([0-9]*)(?=[>,.])"#)
    var depthZero = Set<String>()
    for match in expression.matches(in: name, range: NSRange(name.startIndex..., in: name)) {
        guard let letter = Range(match.range(at: 1), in: name), let depth = Range(match.range(at: 2), in: name) else { continue }
        if !name[depth].isEmpty { return nil }
        depthZero.insert(String(name[letter]))
    }
    return depthZero.isEmpty ? nil : depthZero.count
}

// MARK: protocols, prepare

func protocolsCommand(_ dumps: [String]) {
    var lines: [String] = []
    var seen = Set<String>()
    for path in dumps {
        for type in types(ofDump: path) where string(type["kind"]) == "protocol" {
            guard let name = string(type["name"]), let mangled = string(type["mangledName"]),
                  !seen.contains(name) else { continue }
            seen.insert(name)
            lines.append(tsv([name, mangled]))
        }
    }
    print(lines.joined(separator: "\n"))
}

func prepareCommand(dump: String, protocolsPath: String, out: String) {
    var protocols: [String: String] = [:]
    let text = (try? String(contentsOfFile: protocolsPath, encoding: .utf8)) ?? ""
    for line in text.split(separator: "\n") {
        let parts = line.split(separator: "\t").map(String.init)
        if parts.count == 2 { protocols[parts[0]] = parts[1] }
    }
    var lines: [String] = []
    for (index, type) in types(ofDump: dump).enumerated() {
        let generic = isInGenericContext(type)
        lines.append(tsv(["T", String(index), string(type["kind"]) ?? "-", string(type["mangledName"]) ?? "-",
                          generic ? "1" : "0", depthZeroParameters(string(type["name"]) ?? "").map(String.init) ?? "-"]))
        for (j, field) in (type["fields"] as? [Object] ?? []).enumerated() {
            lines.append(tsv(["F", String(j), string(field["mangledType"]) ?? "-"]))
        }
        for name in type["conformances"] as? [String] ?? [] {
            if let mangled = protocols[name] { lines.append(tsv(["P", name, mangled])) }
        }
    }
    do { try (lines.joined(separator: "\n") + "\n").write(toFile: out, atomically: true, encoding: .utf8) } catch {
        fail("cannot write \(out): \(error)")
    }
}

// MARK: command line

@main
enum Report {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "protocols":
            protocolsCommand(Array(arguments.dropFirst()))
        case "prepare" where arguments.count == 4:
            prepareCommand(dump: arguments[1], protocolsPath: arguments[2], out: arguments[3])
        case "compare" where arguments.count >= 4:
            let options = Array(arguments.dropFirst(4))
            let loadError = options.firstIndex(of: "--load-error").flatMap { options.indices.contains($0 + 1) ? options[$0 + 1] : nil }
            compareCommand(dump: arguments[1], observed: arguments[2], out: arguments[3],
                           flip: options.firstIndex(of: "--flip").flatMap { options.indices.contains($0 + 1) ? options[$0 + 1] : nil },
                           loadError: loadError)
        case "summary":
            var rest = Array(arguments.dropFirst())
            var format = "text"
            if rest.first == "--format", rest.count >= 2 { format = rest[1]; rest.removeFirst(2) }
            guard let details = rest.first else { fail("usage: report summary [--format text|json] DETAILS RESULT.json...") }
            summaryCommand(details: details, results: Array(rest.dropFirst()), format: format)
        default:
            fail("usage: report protocols|prepare|compare|summary ...")
        }
    }
}
