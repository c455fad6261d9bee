import Testing
@testable import TypeInfo
import TypeLayout

@Suite struct ClassInfoLayoutTests {
    @Test func structLayoutMatchesTheLanguage() throws {
        let layout = ClassInfo.of(MixedScalars.self).layout
        #expect(layout.kind == .struct)
        #expect(layout.name == String(reflecting: MixedScalars.self))
        #expect(layout.module == "TypeInfoTests")
        #expect(layout.size == MemoryLayout<MixedScalars>.size)
        #expect(layout.stride == MemoryLayout<MixedScalars>.stride)
        #expect(layout.alignment == MemoryLayout<MixedScalars>.alignment)
        #expect(layout.fields.map(\.name) == Mirror(reflecting: MixedScalars()).children.map { $0.label ?? "" })
        let real = try #require(layout.fields.first { $0.name == "real" })
        #expect(real.offset == MemoryLayout<MixedScalars>.offset(of: \.real))
        #expect(real.size == MemoryLayout<Double>.size)
        #expect(real.alignment == MemoryLayout<Double>.alignment)
        #expect(layout.fields.first { $0.name == "half" }?.alignment == MemoryLayout<Int16>.alignment)
        #expect(real.type == "Swift.Double")
        #expect(layout.source == .runtime)
    }

    /// In-process a generic type is always an instance: its printed mangling is the bound one
    /// `_mangledTypeName` gives (`SaySiG`), which demangles to the printed name (issue 8), and
    /// which the witness comparison matches against DWARF's linkage name of the same instance.
    @Test func boundInstancesKeepTheirBoundMangling() {
        func check<T>(_ type: T.Type) {
            let layout = ClassInfo.of(type).layout
            #expect(layout.mangledName != nil && layout.mangledName == _mangledTypeName(type), "\(layout.name)")
            #expect(layout.mangledName.flatMap(SwiftDemangler.typeName(mangling:)) == layout.name, "\(layout.name)")
            #expect(layout.nominalMangledName == nil, "\(layout.name): the unbound key is set only by the file reader")
        }
        check([Int].self)
        check([String: Double].self)
        check(Int?.self)
        check(Box<Int>.self)
        check(Pair<Box<String>, Int>.self)
        check(GenericNode<Double>.self)
    }

    @Test func typeNamesAreSpelledWithSugar() {
        let fields = Dictionary(uniqueKeysWithValues: ClassInfo.of(Collections.self).layout.fields.map { ($0.name, $0.type) })
        let double = String(reflecting: Double.self)
        let string = String(reflecting: String.self)
        #expect(fields["array"] == "[\(String(reflecting: Int.self))]")
        #expect(fields["dictionary"] == "[\(string) : \(double)]" || fields["dictionary"] == "[\(string): \(double)]")
        #expect(ClassInfo.of(Optionals.self).layout.fields.first?.type == "\(String(reflecting: Int.self))?")
    }

    @Test func classLayoutHasInstanceFactsAndSuperclass() {
        let layout = ClassInfo.of(Dog.self).layout
        #expect(layout.superclass == String(reflecting: Mammal.self))
        #expect(layout.instanceSize == ClassInfo.of(Dog.self).instanceSize)
        #expect(layout.fields.first?.name == "name")
    }

    @Test func ownershipAndLetSurviveIntoTheLayout() {
        let fields = Dictionary(uniqueKeysWithValues: ClassInfo.of(Ownerships.self).layout.fields.map { ($0.name, $0) })
        #expect(fields["weakRef"]?.ownership == .weak)
        #expect(fields["unsafeRef"]?.ownership == .unownedUnsafe)
        #expect(fields["weakRef"]?.mangledType?.hasSuffix("Xw") == true)
        #expect(fields["unownedRef"]?.mangledType?.hasSuffix("Xo") == true)
        #expect(fields["strong"]?.mangledType == _mangledTypeName(Referent.self))
        #expect(ClassInfo.of(Dog.self).layout.fields.first { $0.name == "legs" }?.isVar == false)
    }

    @Test func tupleElementsBecomeFields() {
        typealias Labelled = (x: Float, Int8)
        let layout = ClassInfo.of(Labelled.self).layout
        #expect(layout.fields.map(\.name) == ["x", ".1"])
        #expect(layout.fields.map(\.offset) == [MemoryLayout<Labelled>.offset(of: \.x), MemoryLayout<Labelled>.offset(of: \.1)])
    }

    @Test func enumCasesAndGenericArguments() {
        let layout = ClassInfo.of(Result<String, any Error>.self).layout
        #expect(layout.genericParameters == ["Swift.String", "Swift.Error"])
        #expect(Set(layout.cases.map(\.name)) == ["success", "failure"])
        #expect(layout.cases.first { $0.name == "success" }?.payloadType == "Swift.String")
    }

    @Test func inProcessDocumentRoundTripsThroughJSON() throws {
        let document = LayoutDocument(inProcess: [MixedScalars.self, Dog.self, WithPayload.self], processName: "tests")
        let decoded = try LayoutDocument(jsonData: document.jsonData())
        #expect(decoded == document)
        #expect(decoded.types.count == 3)
    }
}
