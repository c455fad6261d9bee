// Built with -O by ReleaseBuildTests and run: issue 11's cases where an optimized build can
// differ from a debug one. Models, mapper calls and the ordinary property reads that check
// them are all in this optimized module, as in a user's release build. Prints one
// `name<TAB>value` line per check, read by the test.
import Foundation
import ModelMapper
import TypeInfo

func emit(_ name: String, _ value: Any) { print("\(name)\t\(value)") }

func attempt(_ name: String, _ body: () throws -> Any) {
    do { emit(name, try body()) } catch { emit(name, "error: \(error)") }
}

let lenient = ModelMapper(options: MappingOptions(diagnostics: { line in emit("diagnostic", line) }))
let strict = ModelMapper(options: MappingOptions(mode: .strict, diagnostics: { line in emit("diagnostic", line) }))
let omitting = ModelMapper(options: MappingOptions(writesNilAsNull: false))

// MARK: class lets

final class LiteralLets: Mappable {
    let extra: Double = 0
    let id = 0
    let name = ""
    var count = 0
    required init() {}
}

final class InitAssignedLet {
    let id: Int
    init() { id = 0 }
}

struct StructLets: Mappable {
    let id = 0
    let ratio: Double = 0
    init() {}
}

// The trap itself, shown with TypeInfo alone: the field holds 1000, ordinary reads say 0.
let folded = InitAssignedLet()
if let property = ClassInfo.of(InitAssignedLet.self).propertyInfos.first {
    var target = folded
    try? property.set(1000, on: &target)
    emit("fold.stored", (try? property.get(Int.self, from: folded)) ?? -1)
    emit("fold.read", folded.id)
}

attempt("let.lenient") {
    let model = try lenient.decode(LiteralLets.self, from: #"{"extra": 0.5, "id": 1000, "name": "ann", "count": 3}"#)
    return "\(model.extra) \(model.id) \(model.name) \(model.count)"
}
attempt("let.strict") { try strict.decode(LiteralLets.self, from: #"{"id": 1000}"#).id }
attempt("let.struct") {
    let model = try strict.decode(StructLets.self, from: #"{"id": 7, "ratio": 0.25}"#)
    return "\(model.id) \(model.ratio)"
}

// MARK: transformers, paths

struct OptionalTransformed: Mappable {
    var born: Date?
    var label = "x"
    static func configureMapping(_ mapping: inout MappingConfiguration) {
        mapping.transform(
            "born",
            with: MappingTransformer(
                Date.self, decode: { _ in nil }, encode: { date in .double(date.timeIntervalSince1970) }))
    }
}

struct Result: Mappable { var id = 0 }

struct Paths: Mappable {
    var name = ""
    var first = 0
    var dog = ""
    static func configureMapping(_ mapping: inout MappingConfiguration) {
        mapping.map("name", to: "user.name")
        mapping.map("first", to: "distances.0.value")
        mapping.map("dog", to: "data.1.dog.name")
    }
}

attempt("transform.nil") { String(decoding: try lenient.encode(OptionalTransformed()), as: UTF8.self) }
attempt("transform.nil.omitted") { String(decoding: try omitting.encode(OptionalTransformed()), as: UTF8.self) }
for path in ["data.result.", ".data.result", "", "."] {
    attempt("designated[\(path)]") {
        try strict.decode(Result.self, from: path.count > 1 ? #"{"data": {"result": {"id": 5}}}"# : #"{"id": 5}"#, at: path).id
    }
}
attempt("path.through.string") { try strict.decode(Paths.self, from: #"{"user": "ann"}"#).name }
attempt("path.indexes") {
    let model = try strict.decode(Paths.self, from: #"{"distances": [{"value": 12}], "data": [{}, {"dog": {"name": "rex"}}]}"#)
    return "\(model.first) \(model.dog) \(String(decoding: try lenient.encode(model), as: UTF8.self))"
}

// MARK: conversions

struct Converted: Mappable {
    var flag = false
    var ratio = 0.5
    var link: URL?
    var width: CGFloat = 0
    var at = Date(timeIntervalSince1970: 0)
}

attempt("convert") {
    let model = try lenient.decode(
        Converted.self, from: #"{"flag": 0.666, "ratio": true, "link": "  ", "width": 12.5, "at": "Fri Sep 04 00:12:21 +0800 2015"}"#)
    return "\(model.flag) \(model.ratio) \(model.link as Any) \(model.width) \(model.at.timeIntervalSince1970)"
}
attempt("convert.bool.string") { try lenient.decode(Converted.self, from: #"{"flag": "2"}"#).flag }

// MARK: update, nested defaults, dictionaries

struct Volume: Mappable { var level = 5; var muted = false }
struct Settings: Mappable {
    var name = "default"
    var volume = Volume(level: 7, muted: true)
}
final class Account: Mappable {
    var owner = "ann"
    var balance = 10
    required init() {}
}

attempt("update.struct") {
    var settings = Settings()
    try lenient.update(&settings, from: #"{"volume": {"level": 1}}"#)
    return "\(settings.name) \(settings.volume.level) \(settings.volume.muted)"
}
attempt("update.class") {
    let account = Account()
    try lenient.update(account, from: #"{"balance": 99}"#)
    return "\(account.owner) \(account.balance)"
}
attempt("merge.nested") {
    let settings = try lenient.decode(Settings.self, from: #"{"volume": {"level": 9}}"#)
    return "\(settings.volume.level) \(settings.volume.muted)"
}
struct Holder: Mappable { var account = Account() }
attempt("merge.nested.class") {
    var holder = Holder()
    holder.account.owner = "bo"
    let held = holder.account
    let decoded = try lenient.decode(Holder.self, from: #"{"account": {"balance": 3}}"#)
    try lenient.update(&holder, from: #"{"account": {"balance": 4}}"#)
    return "\(decoded.account.owner) \(decoded.account.balance) \(holder.account === held) \(held.owner) \(held.balance)"
}
attempt("dictionary") {
    let accounts = try strict.decode([String: Account].self, from: #"{"a": {"balance": 1}, "b": {"owner": "bo"}}"#)
    return accounts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.owner)/\($0.value.balance)" }.joined(separator: " ")
}

// MARK: models without init()

struct PlainUser: MappableModel {
    let id: Int
    let name: String
}

attempt("factory") {
    let user = try strict.decode(PlainUser.self, from: #"{"id": 1000, "name": "ann"}"#)
    return "\(user.id) \(user.name)"
}

// MARK: enums with associated values

enum Figure { case rect(w: Double, h: Double); case pair(Int, Int); case value(Int); case none }
struct Drawing: Mappable { var figure = Figure.none; var figures: [Figure] = [] }

attempt("enum") {
    let drawing = try strict.decode(
        Drawing.self,
        from: #"{"figure": {"rect": {"w": 2, "h": 3.5}}, "figures": [{"pair": {"_0": 1, "_1": 2}}, {"value": {"_0": 7}}, {"none": {}}]}"#)
    return "\(drawing.figure) \(drawing.figures) \(String(decoding: try lenient.encode(drawing), as: UTF8.self))"
}

// One labelled associated value: a one-element tuple payload, built by TypeInfo.
enum Round: Equatable { case circle(radius: Double) }
struct RoundDrawing: Mappable { var shape = Round.circle(radius: 1) }

attempt("enum.circle") {
    let drawing = try strict.decode(RoundDrawing.self, from: #"{"shape": {"circle": {"radius": 2}}}"#)
    return "\(drawing.shape == .circle(radius: 2)) \(String(decoding: try lenient.encode(drawing), as: UTF8.self))"
}
