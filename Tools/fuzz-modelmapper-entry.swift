// libFuzzer entry point for ModelMapper: every input is read as JSON, written back and read
// again, and decoded into models (every codec kind, a transformer, a subclass chosen from the
// JSON, a designated path) in lenient and strict mode through both field-access strategies,
// then encoded. Built and run by Tools/fuzz-modelmapper; a crash,
// trap, hang, sanitizer report or a changed round trip is a bug.
import Foundation
import ModelMapper
import TypeInfo

struct FuzzChild: Mappable {
    var name = ""
    var children: [FuzzChild] = []
    var when: Date?
}

enum FuzzKind: String { case a, b }
enum FuzzCode: Int { case one = 1, two = 2 }

class FuzzModel: Mappable {
    var id = 0
    var small: Int8 = 0
    var big: UInt64 = 0
    var count: Int?
    var ratio = 0.0
    var single: Float = 0
    var price = Decimal(0)
    var name = ""
    var nickname: String?
    var flag = false
    var maybe: Bool?
    var when = Date(timeIntervalSince1970: 0)
    var link: URL?
    var identifier: UUID?
    var blob: Data?
    var kind: FuzzKind?
    var code = FuzzCode.one
    var tags: Set<String> = []
    var table: [String: Int] = [:]
    var byID: [Int: String] = [:]
    var byKind: [FuzzKind: Double] = [:]
    var child: FuzzChild?
    var children: [FuzzChild] = []
    var nested: [[Int?]] = []
    var raw: JSONValue = .null
    var any: [String: Any] = [:]
    required init() {}

    class func configureMapping(_ mapping: inout MappingConfiguration) {
        mapping.map("name", to: "name", "user.name", "a\\.b")
        mapping.transform("nickname", with: MappingTransformer(
            String.self,
            decode: { json in json.stringValue.map { $0.uppercased() } },
            encode: { text in .string(text.lowercased()) }
        ))
        mapping.subclassSelector = { json in json.string("type") == "sub" ? FuzzSubmodel.self : nil }
    }
}

/// A subclass chosen from the JSON, with its own fields after the inherited ones.
final class FuzzSubmodel: FuzzModel, MappingDidEncode {
    var base = 0
    var extra: [String]?

    func didEncode(into json: inout JSONObject) throws { json["schema"] = 1 }
}

/// Issue 11's paths: enums with associated values (recursive, optional values), a model
/// without `init()`, key paths with array indexes, a class `let` the mapper refuses.
indirect enum FuzzShape {
    case rect(w: Double, h: Double)
    case pair(Int, Int)
    case value(Int)
    case circle(radius: Double)
    case group([FuzzShape], name: String?)
    case none
}

struct FuzzPlain: MappableModel {
    let id: Int
    let label: String?
    let shape: FuzzShape
    let shapes: [FuzzShape]
    let first: Int
    let deep: String

    static func configureMapping(_ mapping: inout MappingConfiguration) {
        mapping.map("first", to: "items.0.id", "children.1.id")
        mapping.map("deep", to: "data.2.name.0")
    }
}

final class FuzzFolded: Mappable {
    let id = 0
    var name = ""
    required init() {}
}

let mappers = [FieldAccessStrategy.instanceStorage, .propertyInfo].flatMap { access in
    [
        ModelMapper(options: MappingOptions(fieldAccess: access, diagnostics: { _ in })),
        ModelMapper(options: MappingOptions(mode: .strict, fieldAccess: access)),
    ]
} + [ModelMapper(options: MappingOptions(keyNaming: .caseInsensitive, writesNilAsNull: false, diagnostics: { _ in }))]

@_cdecl("LLVMFuzzerTestOneInput")
public func modelMapperFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Data(bytes: data, count: size)
    guard let value = try? JSONValue(parsing: bytes) else {
        // Malformed JSON: every mapper must refuse it with an error (the reader is shared).
        if (try? mappers[0].decode(FuzzModel.self, from: bytes)) != nil { fatalError("malformed JSON decoded") }
        return 0
    }
    // What the writer writes, the reader reads back to the same tree.
    let again = try? JSONValue(parsing: value.jsonData(), options: JSONReadOptions(maxDepth: .max))
    if again != value { fatalError("JSON round trip changed the value") }
    for (index, mapper) in mappers.enumerated() {
        // A clear error is a fine outcome; only a crash is not.
        if let model = try? mapper.decode(FuzzModel.self, from: bytes) {
            _ = try? mapper.encode(model)
            if index == 0 { _ = try? mapper.encodeToDictionary(model) }
        }
        if let plain = try? mapper.decode(FuzzPlain.self, from: bytes) { _ = try? mapper.encode(plain) }
        if let byName = try? mapper.decode([String: FuzzChild].self, from: bytes) { _ = try? mapper.encode(byName) }
        var updated = FuzzChild()
        if (try? mapper.update(&updated, from: bytes)) != nil { _ = try? mapper.encode(updated) }
        let folded = FuzzFolded()
        // Read the field through TypeInfo: this optimized program's own reads of `id` are folded to 0.
        if (try? mapper.update(folded, from: bytes)) != nil,
            let stored = try? ClassInfo.of(FuzzFolded.self).propertyInfosByName["id"]?.get(Int.self, from: folded), stored != 0
        {
            fatalError("a class let was written in place")
        }
        guard index < 2 else { continue }
        if let models = try? mapper.decode([FuzzChild].self, from: bytes) { _ = try? mapper.encode(models) }
        if let sub = try? mapper.decode(FuzzSubmodel.self, from: bytes, at: "data") { _ = try? mapper.encode(sub) }
        if let root = try? mapper.decode(FuzzModel.self, from: value, at: "data") {
            _ = try? mapper.encodeToJSONValue(root)
        }
    }
    return 0
}
