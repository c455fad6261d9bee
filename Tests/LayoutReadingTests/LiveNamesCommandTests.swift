import BinaryFixtures
import Foundation
import Testing
import TypeLayout
import TypeLowering

/// The names and values `heap`, `object` and `dump --pid` print for LiveShapes' objects are the
/// runtime's own (`String(reflecting:)`, as the fixture prints them) or marked unknown; private
/// types are named by their discriminator, the same in every run.
@Suite(
    "live names are the runtime's",
    .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct LiveNamesCommandTests {
    /// The field of an `object --format json` report named `name`.
    static func field(_ json: [String: Any], _ name: String) throws -> [String: Any] {
        try #require((json["fields"] as? [[String: Any]])?.first { $0["name"] as? String == name }, "no field \(name)")
    }

    /// The runtime's name with the sugar typeinfo writes (`Swift.Array<X>` as `[X]`).
    static func sugared(_ runtimeName: String) -> String { TypeNameSugar.apply(runtimeName) }

    @Test(arguments: FixtureLinking.allCases)
    func fieldTypesAreTheRuntimesOrUnknown(_ linking: FixtureLinking) throws {
        let fixture = try LiveShapesFixture(linking)
        defer { fixture.finish() }
        let report = fixture.report
        let pid = String(fixture.processID)
        let migrations = try ObjectCommandTests.json([pid, report.migrations.address])
        #expect(try Self.field(migrations, "models")["type"] as? String == Self.sugared(report.modelsFieldType))
        let metatypes = try ObjectCommandTests.json([pid, report.metatypes.address])
        #expect(try Self.field(metatypes, "existential")["type"] as? String == report.existentialMetatypeFieldType)
        #expect(try Self.field(metatypes, "protocolMetatype")["type"] as? String == report.protocolMetatypeFieldType)
        // The library garbles a parameterized existential's requirement; corrected, it is the runtime's name.
        let router = try ObjectCommandTests.json([pid, report.router.address])
        #expect(try Self.field(router, "responder")["type"] as? String == report.responderFieldType)
        // Inside an instantiation of a generic struct of one argument: the runtime's name, the
        // requirement bound to the argument the reflection library gives.
        let endpoints = try ObjectCommandTests.json([pid, report.endpoints.address, "--depth", "1"])
        let responders = try #require(try Self.field(endpoints, "responders")["value"] as? [String: Any])
        let methods = try Self.field(responders, "methods")
        #expect(methods["type"] as? String == Self.sugared(report.methodsFieldType), "\(methods)")
        // A class whose generic argument is one: the dictionary's storage, as the runtime names it.
        let census = try HeapCommandTests.census([pid])
        #expect(census.types.contains { $0.type == Self.sugared(report.methodsStorageType) }, "\(census.types.map(\.type))")
        #expect(!census.types.contains { $0.type.hasPrefix("<class metadata") }, "\(census.types.map(\.type))")
        // Each object's own type, as the runtime names it.
        for object in [report.router, report.migrations, report.fields, report.box, report.book, report.metatypes] {
            #expect(try ObjectCommandTests.json([pid, object.address])["type"] as? String == object.type)
        }
    }

    @Test(arguments: FixtureLinking.allCases)
    func aPrivateTypeIsNamedByItsDiscriminatorEverywhere(_ linking: FixtureLinking) throws {
        let fixture = try LiveShapesFixture(linking)
        defer { fixture.finish() }
        let pid = String(fixture.processID)
        // `dump --pid` reads each image as `dump FILE` reads its file: its name for the class is the oracle.
        let dump = try DumpCommandTests.run(["dump", "--pid", pid, "--module", "LiveShapes", "--format", "json"])
        #expect(dump.status == 0, "\(dump.errors)")
        let documents = try #require(try JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [[String: Any]])
        let fileNames = documents.dropLast().flatMap { ($0["types"] as? [[String: Any]]) ?? [] }.compactMap { $0["name"] as? String }
        let secret = try #require(fileNames.first { $0.hasPrefix("LiveShapes.(Secret in _") }, "\(fileNames)")
        let keeper = try ObjectCommandTests.json([pid, fixture.report.keeper.address])
        #expect(try Self.field(keeper, "secret")["type"] as? String == secret)
        let object = try ObjectCommandTests.json([pid, fixture.report.secretAddress])
        #expect(object["type"] as? String == secret)
        let census = try HeapCommandTests.census([pid])
        #expect(census.types.contains { $0.type == secret }, "\(census.types.map(\.type))")
        #expect(!census.types.contains { $0.type.contains("in $") })
        // A private actor, as `tasks` lists it.
        let vault = try #require(fileNames.first { $0.hasPrefix("LiveShapes.(Vault in _") }, "\(fileNames)")
        let tasks = try DumpCommandTests.run(["tasks", pid, "--format", "json"])
        #expect(tasks.status == 0, "\(tasks.errors)")
        let actors = try #require(
            (try JSONSerialization.jsonObject(with: Data(tasks.output.utf8)) as? [String: Any])?["actors"] as? [[String: Any]])
        #expect(actors.compactMap { $0["type"] as? String } == [vault], "\(actors)")
    }

    @Test func aBaselineFromAnotherRunListsNoPrivateTypeAsGoneAndNew() throws {
        let first = try LiveShapesFixture()
        let firstCensus = try HeapCommandTests.census([String(first.processID)])
        first.finish()
        let second = try LiveShapesFixture()
        defer { second.finish() }
        let secondCensus = try HeapCommandTests.census([String(second.processID)])
        let ours = { (census: HeapCensus) in Set(census.types.map(\.type).filter { $0.hasPrefix("LiveShapes.") }) }
        #expect(ours(firstCensus) == ours(secondCensus), "\(ours(firstCensus).symmetricDifference(ours(secondCensus)))")
        // `heap --baseline`: the first run's census against the second run.
        let baseline = FileManager.default.temporaryDirectory.appendingPathComponent("typeinfo-baseline-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: baseline) }
        try firstCensus.jsonData().write(to: baseline)
        let compared = try HeapCommandTests.census([String(second.processID), "--baseline", baseline.path])
        let privateTypes = compared.types.filter { $0.type.hasPrefix("LiveShapes.(") }
        #expect(privateTypes.count == 2, "\(privateTypes.map(\.type))")
        // Each held as many times in both runs: neither gone (count 0) nor new (grown by all it has).
        for entry in privateTypes {
            #expect(
                entry.count > 0 && entry.countDelta == 0, "\(entry.type): count \(entry.count), +\(String(describing: entry.countDelta))")
        }
    }

    @Test(arguments: FixtureLinking.allCases)
    func arraysOfClassesAreAttributedToTheirElementsClass(_ linking: FixtureLinking) throws {
        let fixture = try LiveShapesFixture(linking)
        defer { fixture.finish() }
        let census = try HeapCommandTests.census([String(fixture.processID), "--addresses", "1000"])
        let storage = "Swift._ContiguousArrayStorage<Swift.AnyObject>"
        for array in fixture.report.classArrays {
            let address = try #require(UInt64(array.storage.dropFirst(2), radix: 16))
            let entry = try #require(census.types.first { $0.addresses.contains(address) }, "no entry holds \(array.storage)")
            // Its class's true name, and the element class its elements state (none when empty or unrelated).
            #expect(entry.type == storage, "\(entry.key)")
            #expect(entry.elementType == array.elementType, "\(array.storage) (count \(array.count)): \(entry.key)")
        }
        // No other storage is attributed to the fixture's element classes: the counts are its own.
        let expected = Dictionary(grouping: fixture.report.classArrays.compactMap(\.elementType)) { $0 }.mapValues(\.count)
        let found = Dictionary(uniqueKeysWithValues: census.types.compactMap { entry in entry.elementType.map { ($0, entry.count) } })
        #expect(found.filter { $0.key.hasPrefix("LiveShapes.") } == expected, "\(found)")
        // The text names the storage's class with its elements' beside it.
        let text = try DumpCommandTests.run(["heap", String(fixture.processID)])
        #expect(text.output.contains("\(storage) (of LiveShapes.Item)"), "\(text.output)")
    }

    @Test(arguments: FixtureLinking.allCases)
    func noCensusNameIsAProtocolMetatype(_ linking: FixtureLinking) throws {
        let fixture = try LiveShapesFixture(linking)
        defer { fixture.finish() }
        let census = try HeapCommandTests.census([String(fixture.processID)])
        // The fixture holds `[any Schema.Type]` and no protocol metatype in any collection.
        #expect(!census.types.contains { $0.type.contains(".Protocol") }, "\(census.types.map(\.type))")
        #expect(census.types.contains { $0.type == "Swift._ContiguousArrayStorage<LiveShapes.Schema.Type>" })
    }

    @Test(arguments: FixtureLinking.allCases)
    func anIndirectCaseIsItsPayloadOrUnknownWithItsBox(_ linking: FixtureLinking) throws {
        let fixture = try LiveShapesFixture(linking)
        defer { fixture.finish() }
        let holder = try ObjectCommandTests.json([String(fixture.processID), fixture.report.fields.address])
        // A payload of a fixed-size type is in a box whose metadata states its type: read.
        let key = try #require(try Self.field(holder, "key")["value"] as? [String: Any])
        #expect(key["case"] as? String == "string" && key["payload"] as? String == "title", "\(key)")
        // One whose type the box states with a reference the library is not asked about: never the
        // box taken for the payload, but the payload read, or unknown with the box's address.
        let nested = try #require(try Self.field(holder, "nested")["value"] as? [String: Any])
        #expect(nested["case"] as? String == "prefixed")
        if !(nested["payload"] is [String: Any]) {
            let reason = try #require(nested["unknown"] as? String, "\(nested)")
            #expect(reason.contains("in the box 0x"), "\(reason)")
        }
        #expect(try Self.field(holder, "plain")["value"] as? [String: String] == ["case": "id"])
    }

    @Test(arguments: FixtureLinking.allCases)
    func aLetOfAnInstantiationIsLet(_ linking: FixtureLinking) throws {
        let fixture = try LiveShapesFixture(linking)
        defer { fixture.finish() }
        let dump = try DumpCommandTests.run(["dump", "--pid", String(fixture.processID), "--format", "json"])
        #expect(dump.status == 0, "\(dump.errors)")
        let documents = try #require(try JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [[String: Any]])
        let instantiations = try #require(documents.last?["types"] as? [[String: Any]])
        let box = try #require(instantiations.first { $0["name"] as? String == fixture.report.box.type }, "no \(fixture.report.box.type)")
        let fields = try #require(box["fields"] as? [[String: Any]])
        let mutability = Dictionary(
            uniqueKeysWithValues: fields.compactMap { field in
                (field["name"] as? String).map { ($0, field["isVar"] as? Bool) }
            })
        #expect(mutability == ["value": false, "count": true])
        // A generic struct's instantiation, reached from a field: its `let` from its field records.
        let responders = try #require(
            instantiations.first { ($0["name"] as? String)?.hasPrefix("LiveShapes.EndpointResponders<") == true }, "no EndpointResponders")
        let structFields = try #require(responders["fields"] as? [[String: Any]])
        let structMutability = Dictionary(
            uniqueKeysWithValues: structFields.compactMap { field in (field["name"] as? String).map { ($0, field["isVar"] as? Bool) } })
        #expect(structMutability == ["path": false, "methods": true])
        // Its parameterized existential of the struct's parameter: the runtime's name, the
        // requirement bound to the instantiation's argument.
        let methods = try #require(structFields.first { $0["name"] as? String == "methods" })
        #expect(methods["type"] as? String == Self.sugared(fixture.report.methodsFieldType), "\(methods)")
        let notes = ((documents.last?["image"] as? [String: Any])?["notes"] as? [String]) ?? []
        #expect(!notes.contains { $0.contains(".methods: its type is unknown") }, "\(notes)")
    }
}

extension LiveNamesCommandTests {
    /// `let` or `var` of each field of the generic type named `prefix` (`LiveShapes.Box<`), as
    /// a `dump --format json` document lists it (nil: unknown).
    static func mutability(of prefix: String, in types: [[String: Any]]) throws -> [String: Bool?] {
        let type = try #require(types.first { ($0["name"] as? String)?.hasPrefix(prefix) == true }, "no \(prefix)")
        let fields = try #require(type["fields"] as? [[String: Any]])
        return Dictionary(
            uniqueKeysWithValues: fields.compactMap { field in (field["name"] as? String).map { ($0, field["isVar"] as? Bool) } })
    }

    /// A stripped build has no descriptor symbols: a generic struct's descriptor, reached only
    /// from a field on the heap, is found among the types its image lists, and its `let` and
    /// `var` are those `dump FILE` reads from the unstripped build's generic type.
    @Test(arguments: FixtureLinking.allCases)
    func aLetOfAnInstantiationInAStrippedBuildIsLet(_ linking: FixtureLinking) throws {
        let fixture = try LiveShapesFixture(linking, stripped: true)
        defer { fixture.finish() }
        let file = try DumpCommandTests.run(
            ["dump", try SwiftPMFixture.product(package: "LiveShapes", linking: linking), "--module", "LiveShapes", "--format", "json"])
        #expect(file.status == 0, "\(file.errors)")
        let fileTypes = try #require(
            (try JSONSerialization.jsonObject(with: Data(file.output.utf8)) as? [String: Any])?["types"] as? [[String: Any]])
        let dump = try DumpCommandTests.run(["dump", "--pid", String(fixture.processID), "--module", "LiveShapes", "--format", "json"])
        #expect(dump.status == 0, "\(dump.errors)")
        let documents = try #require(try JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [[String: Any]])
        let instantiations = try #require(documents.last?["types"] as? [[String: Any]])
        // The stripped image really has no symbol to find it by.
        let strippedFile = try SwiftPMFixture.strippedProduct(package: "LiveShapes", linking: linking)
        let stripped = try DumpCommandTests.run(["dump", strippedFile, "--module", "LiveShapes", "--format", "json"])
        let image = (try JSONSerialization.jsonObject(with: Data(stripped.output.utf8)) as? [String: Any])?["image"] as? [String: Any]
        #expect(image?["hasSymbols"] as? Bool == false, "\(stripped.output.prefix(400))")
        for prefix in ["LiveShapes.EndpointResponders<", "LiveShapes.Box<"] {
            let truth = try Self.mutability(of: prefix, in: fileTypes)
            #expect(truth.values.contains(false) && truth.values.contains(true), "\(prefix): \(truth)")
            #expect(try Self.mutability(of: prefix, in: instantiations) == truth, "\(prefix)")
        }
    }
}

/// The corrections to the reflection library's manglings, on the shapes it spells.
@Suite struct LibraryManglingsTests {
    @Test func anExistentialMetatypeIsOneWhereverItIs() {
        #expect(LibraryManglings.corrected("10LiveShapes6Schema_pm") == "10LiveShapes6Schema_pXp")
        #expect(LibraryManglings.corrected("Say10LiveShapes6Schema_pmG") == "Say10LiveShapes6Schema_pXpG")
        #expect(SwiftDemangler.typeName(mangling: LibraryManglings.corrected("Say10LiveShapes6Schema_pmG")) == "[LiveShapes.Schema.Type]")
        // With an AnyObject constraint, inside a class's generic arguments (an array's storage).
        let storage = LibraryManglings.corrected("s23_ContiguousArrayStorageCy10LiveShapes6Schema_XlmG")
        #expect(storage == "s23_ContiguousArrayStorageCy10LiveShapes6Schema_XlXpG")
        // The runtime's demangler writes a composition's existential metatype without parentheses.
        #expect(SwiftDemangler.typeName(mangling: storage) == "Swift._ContiguousArrayStorage<LiveShapes.Schema & Swift.AnyObject.Type>")
        #expect(LibraryManglings.corrected("ypm") == "ypXp")
        // A true metatype keeps its representation, and an `m` inside an identifier is no operator.
        #expect(LibraryManglings.corrected("10LiveShapes6Schema_pXMt") == "10LiveShapes6Schema_pXMt")
        #expect(LibraryManglings.corrected("4main5Xa_pmV") == "4main5Xa_pmV")
    }

    @Test func aRequirementOnTheGenericParameterIsBoundToTheArgument() throws {
        let field = "SDySS10LiveShapes9Responder_px7ContextAaBPRtz_XPG"
        let instantiation = "10LiveShapes18EndpointRespondersVyAA12BasicContextVG"
        let arguments = try LibraryManglings.GenericArguments.confirmed(
            instantiation: instantiation, arguments: ["10LiveShapes12BasicContextV"]
        ).get()
        #expect(arguments.names == ["LiveShapes.BasicContext"])
        let corrected = try #require(LibraryManglings.correctedRequirements(field, arguments: arguments))
        let name = try #require(SwiftDemangler.demangle(symbol: "$s" + corrected + "D"))
        #expect(name.contains("any LiveShapes.Responder<Self.LiveShapes.Responder.Context == LiveShapes.BasicContext>"), "\(name)")
        #expect(!LibraryManglings.isGarbledConstraint(name))
        #expect(LibraryManglings.correctedRequirements("SaySiG", arguments: arguments) == nil)
        // An argument of the standard library.
        let overInt = try LibraryManglings.GenericArguments.confirmed(
            instantiation: "10LiveShapes18EndpointRespondersVySiG", arguments: ["Si"]
        ).get()
        #expect(
            LibraryManglings.correctedRequirements(field, arguments: overInt).flatMap { SwiftDemangler.demangle(symbol: "$s" + $0 + "D") }?
                .contains("Responder<Self.LiveShapes.Responder.Context == Swift.Int>") == true)
        // The second parameter (`q_`, B) of an instantiation of two is bound to the second argument;
        // `x`, which the library writes for any parameter, is not bound where there are two.
        let pair = try LibraryManglings.GenericArguments.confirmed(instantiation: "10LiveShapes4PairVySiSSG", arguments: ["Si", "SS"]).get()
        #expect(LibraryManglings.correctedRequirements(field, arguments: pair) == nil)
        let second = try #require(
            LibraryManglings.correctedRequirements("SDySS10LiveShapes9Responder_pq_7ContextAaBPRtz_XPG", arguments: pair))
        #expect(
            SwiftDemangler.demangle(symbol: "$s" + second + "D")?.contains("Responder<Self.LiveShapes.Responder.Context == Swift.String>")
                == true)
        // Arguments that are not the instantiation's, or a type nested in a generic type: nothing is guessed.
        #expect(throws: LibraryManglings.Unbound.self) {
            try LibraryManglings.GenericArguments.confirmed(instantiation: "10LiveShapes4PairVySiSSG", arguments: ["SS", "Si"]).get()
        }
        #expect(throws: LibraryManglings.Unbound.self) {
            try LibraryManglings.GenericArguments.confirmed(instantiation: "10LiveShapes4PairVySiSSG", arguments: ["Si", nil]).get()
        }
        let nested = LibraryManglings.GenericArguments.confirmed(instantiation: "10LiveShapes5OuterV5InnerVySi_SSG", arguments: ["SS"])
        #expect(throws: LibraryManglings.Unbound.self) { try nested.get() }
        if case .failure(let unbound) = nested { #expect(unbound.description.contains("nested in a generic type"), "\(unbound)") }
    }

    @Test func aRequirementOnItsConstraintTypeIsPutOnSelf() {
        let library = "10LiveShapes9Responder_pAA12BasicContextV0E0AaBPQxAGRS_XP"
        let corrected = LibraryManglings.corrected(library)
        #expect(corrected == "10LiveShapes9Responder_pAA12BasicContextV0E0AaBPRts_XP")
        #expect(
            SwiftDemangler.typeName(mangling: corrected)
                == "any LiveShapes.Responder<Self.LiveShapes.Responder.Context == LiveShapes.BasicContext>")
        // A requirement left on a generic parameter is not guessed at: no name, and why.
        let unsubstituted = "SDySS10LiveShapes9Responder_px7ContextAaBPRtz_XPG"
        #expect(LibraryManglings.corrected(unsubstituted) == unsubstituted)
        #expect(LibraryManglings.whyUnnamed(unsubstituted).contains("parameterized existential's requirement"))
        // One on the first parameter (`Rtz`) whose constraint type is concrete: that parameter is `Self`.
        let concrete = LibraryManglings.corrected("SD8_VariantVySS12LiveGenerics7Handler_pAC14RequestContextV0F0AcDPRtz_XP_G")
        #expect(
            SwiftDemangler.typeName(mangling: concrete)
                == "[Swift.String: any LiveGenerics.Handler<Self.LiveGenerics.Handler.Context == LiveGenerics.RequestContext>]._Variant")
        // An `RS` that is not the library's shape is left alone.
        #expect(LibraryManglings.corrected("4main2RSV") == "4main2RSV")
    }

    @Test func aGarbledRequirementIsRecognised() {
        let library = SwiftDemangler.demangle(symbol: "$s10LiveShapes9Responder_pAA12BasicContextV0E0AaBPQxAGRS_XPD")
        let runtime = SwiftDemangler.demangle(symbol: "$s10LiveShapes9Responder_pAA12BasicContextV0E0AaBPRts_XPD")
        #expect(library.map(LibraryManglings.isGarbledConstraint) == true)
        #expect(runtime.map(LibraryManglings.isGarbledConstraint) == false)
        #expect(LibraryManglings.withoutRepresentations("@thin LiveShapes.Schema.Protocol") == "LiveShapes.Schema.Protocol")
    }
}
