import Testing
@testable import TypeInfo
import TypeLayout

@Suite struct KindTests {
    @Test func kindsOfEveryShapeOfType() {
        let table: [(Any.Type, TypeKind)] = [
            (MixedScalars.self, .struct), (Dog.self, .class), (NoPayload.self, .enum),
            (Int?.self, .optional), ((Int, String).self, .tuple), (((Int) -> Int).self, .function),
            (Any.self, .existential), ((any Shape).self, .existential), (AnyObject.self, .existential),
            (Int.Type.self, .metatype), (Any.Type.self, .existentialMetatype), ((any Shape).Type.self, .metatype),
            ((any Shape.Type).self, .existentialMetatype),
        ]
        for (type, kind) in table {
            #expect(ClassInfo.of(type).kind == kind, "\(type)")
            #expect(ClassInfo.of(type).size == languageSize(of: type), "\(type) size")
        }
    }

    @Test func enumCasesWithoutPayload() throws {
        let info = ClassInfo.of(NoPayload.self)
        #expect(info.kind == .enum)
        #expect(Set(info.cases.map(\.name)) == ["north", "south", "east", "west"])
        #expect(info.cases.allSatisfy { $0.payloadType == nil && !$0.isIndirect })
        #expect(info.size == MemoryLayout<NoPayload>.size)
        #expect(info.propertyInfos.isEmpty)
    }

    @Test func enumCasesWithPayload() throws {
        let info = ClassInfo.of(WithPayload.self)
        let cases = Dictionary(uniqueKeysWithValues: info.cases.map { ($0.name, $0) })
        #expect(cases.keys.sorted() == ["empty", "label", "point"])
        #expect(cases["point"]?.payloadType == (Double, Double).self)
        #expect(isSame(cases["label"]?.payloadType, String.self))
        #expect(cases["empty"]?.payloadType == nil)
        // Mirror names the active case of a live value: every value's case is one we list.
        for value in [WithPayload.point(1, 2), .label("x"), .empty] {
            let name = Mirror(reflecting: value).children.first?.label ?? String(describing: value)
            #expect(cases[name] != nil, "\(name)")
        }
        #expect(info.size == MemoryLayout<WithPayload>.size)
        #expect(info.stride == MemoryLayout<WithPayload>.stride)
    }

    @Test func rawValueEnum() {
        let info = ClassInfo.of(RawValued.self)
        #expect(Set(info.cases.map(\.name)) == ["alpha", "beta"])
        #expect(info.size == MemoryLayout<RawValued>.size)
    }

    @Test func indirectEnums() {
        let tree = ClassInfo.of(Tree.self)
        #expect(tree.cases.allSatisfy { $0.payloadType == nil || $0.isIndirect })
        #expect(tree.cases.first { $0.name == "node" }?.payloadType == (Tree, Tree).self)
        let partly = Dictionary(uniqueKeysWithValues: ClassInfo.of(PartlyIndirect.self).cases.map { ($0.name, $0) })
        #expect(partly["list"]?.isIndirect == true)
        #expect(partly["value"]?.isIndirect == false)
        #expect(isSame(partly["list"]?.payloadType, PartlyIndirect.self))
    }

    @Test func optionalCasesAndArgument() {
        let info = ClassInfo.of(String?.self)
        #expect(Set(info.cases.map(\.name)) == ["some", "none"])
        #expect(isSame(info.cases.first { $0.name == "some" }?.payloadType, String.self))
        #expect(info.genericArguments.map(ObjectIdentifier.init) == [ObjectIdentifier(String.self)])
    }

    @Test func genericEnumPayloadsAreSpecialised() {
        let info = ClassInfo.of(Result<[UInt8], Never>.self)
        #expect(isSame(info.cases.first { $0.name == "success" }?.payloadType, [UInt8].self))
        #expect(info.genericArguments.count == 2)
    }

    @Test func tupleElements() {
        typealias Labelled = (x: Float, name: String, Int8)
        let info = ClassInfo.of(Labelled.self)
        #expect(info.tupleElements.map(\.label) == ["x", "name", nil])
        #expect(
            info.tupleElements.map { ObjectIdentifier($0.type) }
                == [ObjectIdentifier(Float.self), ObjectIdentifier(String.self), ObjectIdentifier(Int8.self)])
        #expect(info.tupleElements[0].offset == MemoryLayout<Labelled>.offset(of: \.x))
        #expect(info.tupleElements[1].offset == MemoryLayout<Labelled>.offset(of: \.name))
        #expect(info.tupleElements[2].offset == MemoryLayout<Labelled>.offset(of: \.2))
        #expect(info.size == MemoryLayout<Labelled>.size)
    }

    @Test func functionTypes() throws {
        let plain = try #require(ClassInfo.of(((Int, String) -> Bool).self).function)
        #expect(plain.parameterTypes.map(ObjectIdentifier.init) == [ObjectIdentifier(Int.self), ObjectIdentifier(String.self)])
        #expect(isSame(plain.resultType, Bool.self))
        #expect(!plain.isThrowing && !plain.isAsync && plain.convention == .swift)

        let effects = try #require(ClassInfo.of((@Sendable (Double) async throws -> Void).self).function)
        #expect(effects.isThrowing && effects.isAsync && effects.isSendable)
        #expect(isSame(effects.resultType, Void.self))

        let c = try #require(ClassInfo.of((@convention(c) (Int32) -> Int32).self).function)
        #expect(c.convention == .c)
    }

    @Test func existentialsAndMetatypes() {
        #expect(ClassInfo.of(AnyObject.self).isClassBoundExistential == true)
        #expect(ClassInfo.of((any Delegate).self).isClassBoundExistential == true)
        #expect(ClassInfo.of(Any.self).isClassBoundExistential == false)
        #expect(ClassInfo.of((any Shape & Named).self).isClassBoundExistential == false)
        #expect(isSame(ClassInfo.of(Int.Type.self).instanceType, Int.self))
        #expect(ClassInfo.of((any Shape & Named).self).size == MemoryLayout<any Shape & Named>.size)
    }
}

/// `MemoryLayout<T>.size` for a type known only at run time.
func languageSize(of type: Any.Type) -> Int {
    func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
    return size(type)
}
