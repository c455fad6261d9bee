import BinaryFixtures
import Foundation
import Testing
import TypeLayout

/// `object --depth 2` on the first object of every type on a server's heap (the LoadServer
/// fixture, a SwiftPM release build) reads every one, and marks what it could not read or name
/// unknown with the reason beside it.
@Suite(
    "object reads every type on a server's heap",
    .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct LoadServerObjectsTests {
    /// The places in an `object --format json` report that are unknown without a reason.
    static func unexplained(_ json: Any, path: String) -> [String] {
        var found: [String] = []
        if let object = json as? [String: Any] {
            if let fields = object["fields"] as? [[String: Any]] {
                for field in fields {
                    let name = path + "." + (field["name"] as? String ?? "?")
                    if field["type"] is NSNull, !(field["typeUnknown"] is String) { found.append(name + " (type)") }
                    if field["value"] is NSNull, !(field["unknown"] is String) { found.append(name + " (value)") }
                    if let value = field["value"] { found += unexplained(value, path: name) }
                }
            }
            // A reference whose type is unknown says why.
            if object["address"] is String, object["type"] is NSNull, !(object["unknown"] is String) { found.append(path + " (reference)") }
            if object["payload"] is NSNull, !(object["unknown"] is String) { found.append(path + " (payload)") }
            if let payload = object["payload"] { found += unexplained(payload, path: path + ".payload") }
            if let followed = object["object"] { found += unexplained(followed, path: path + ".object") }
            if let elements = object["elements"] as? [Any] {
                let reasons = object["unknown"] as? [String: String] ?? [:]
                for (index, element) in elements.enumerated() {
                    if element is NSNull, reasons[String(index)] == nil { found.append(path + "[\(index)]") }
                    found += unexplained(element, path: path + "[\(index)]")
                }
            }
        }
        return found
    }

    @Test(arguments: FixtureLinking.allCases)
    func theFirstObjectOfEveryTypeReadsToDepthTwo(_ linking: FixtureLinking) throws {
        let server = try LoadServerFixture(linking, environment: ["LOAD_SERVER_WORKERS": "0"])
        defer { server.finish() }
        let pid = String(server.processID)
        let census = try HeapCommandTests.census([pid, "--addresses", "1"])
        #expect(census.types.count > 5, "\(census.types.map(\.key))")
        for entry in census.types {
            let address = try #require(entry.addresses.first, "\(entry.key) has no address")
            let hex = "0x" + String(address, radix: 16)
            let result = try DumpCommandTests.run(["object", pid, hex, "--depth", "2", "--format", "json"])
            #expect(result.status == 0, "\(entry.key) at \(hex): \(result.errors)")
            guard result.status == 0 else { continue }
            let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8))
            #expect((json as? [String: Any])?["type"] as? String == entry.type, "\(entry.key) at \(hex)")
            let missing = Self.unexplained(json, path: entry.type)
            #expect(missing.isEmpty, "unknown without a reason: \(missing)")
        }
    }
}
