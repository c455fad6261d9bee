import Foundation
import Testing
import TypeInfoFixtures
@testable import TypeInfo
import TypeLayout

@Suite struct StructLayoutTests {
    @Test func emptyStruct() throws {
        try expectMatchesLanguage(EmptyStruct())
        #expect(ClassInfo.of(EmptyStruct.self).propertyInfos.isEmpty)
        #expect(ClassInfo.of(EmptyStruct.self).kind == .struct)
    }

    @Test func mixedAlignmentScalars() throws {
        let other = MixedScalars(flag: false, wide: 77, small: 1, real: -0.5, half: -2, single: 9, character: "z")
        try expectMatchesLanguage(
            MixedScalars(), other: other,
            offsets: [
                "flag": \.flag, "wide": \.wide, "small": \.small, "real": \.real,
                "half": \.half, "single": \.single, "character": \.character,
            ])
    }

    @Test func nestedStructs() throws {
        try expectMatchesLanguage(
            Nested(), other: Nested(inner: Inner(a: 5, b: true), tag: 0, more: Inner()),
            offsets: ["inner": \.inner, "tag": \.tag, "more": \.more])
        let info = ClassInfo.of(Nested.self)
        #expect(isSame(info.propertyInfo(named: "inner")?.type, Inner.self))
        #expect(info.propertyInfo(named: "inner")?.size == MemoryLayout<Inner>.size)
    }

    @Test func optionals() throws {
        let other = Optionals(int: nil, string: nil, object: nil, inner: Inner(a: 3, b: true), double: .some(.some(4)))
        try expectMatchesLanguage(
            Optionals(), other: other,
            offsets: [
                "int": \.int, "string": \.string, "object": \.object, "inner": \.inner, "double": \.double,
            ])
        let info = ClassInfo.of(Optionals.self)
        #expect(isSame(info.propertyInfo(named: "object")?.type, Optional<Referent>.self))
        #expect(isSame(info.propertyInfo(named: "double")?.type, Optional<Double?>.self))
    }

    @Test func collections() throws {
        let other = Collections(array: [], dictionary: ["z": 26], set: ["p", "q"], nested: [])
        try expectMatchesLanguage(
            Collections(), other: other,
            offsets: [
                "array": \.array, "dictionary": \.dictionary, "set": \.set, "nested": \.nested,
            ])
        let array = ClassInfo.of([Int].self)
        #expect(array.genericArguments.count == 1 && isSame(array.genericArguments.first, Int.self))
        let dictionary = ClassInfo.of([String: Double].self)
        #expect(dictionary.genericArguments.map { String(reflecting: $0) } == ["Swift.String", "Swift.Double"])
    }

    @Test func tupleFields() throws {
        try expectMatchesLanguage(
            Tuples(), other: Tuples(pair: (2, "two"), labelled: (x: 5, y: 6)),
            offsets: ["pair": \.pair, "labelled": \.labelled, "unit": \.unit])
    }

    @Test func closureFields() throws {
        let info = ClassInfo.of(Closures.self)
        let value = Closures()
        #expect(info.propertyInfos.map(\.name) == Mirror(reflecting: value).children.map { $0.label ?? "" })
        #expect(info.size == MemoryLayout<Closures>.size)
        // Closures are stored in their declared type's calling convention, so key paths have no
        // offset for them: watch which bytes an assignment changes instead.
        #expect(covers(info.propertyInfo(named: "transform"), changedBytes(of: value) { $0.transform = { $0 * 2 } }))
        #expect(covers(info.propertyInfo(named: "thrower"), changedBytes(of: value) { $0.thrower = { _ in throw CancellationError() } }))
        #expect(covers(info.propertyInfo(named: "asyncSendable"), changedBytes(of: value) { $0.asyncSendable = { 2 } }))
        let transform = try #require(info.propertyInfo(named: "transform"))
        #expect(isSame(transform.type, ((Int) -> Int).self))
        #expect(!transform.canAccessValue)
        #expect(throws: PropertyAccessError.unsupportedStorage(property: "transform", type: "(Swift.Int) -> Swift.Int")) {
            _ = try transform.get(from: value)
        }
        var copy = value
        #expect(throws: PropertyAccessError.self) { try transform.set({ (x: Int) in x }, on: &copy) }
        #expect(copy.transform(41) == 42)
    }

    @Test func existentialFields() throws {
        var other = Existentials()
        other.any = "text"
        other.shape = Square(side: 3)
        other.object = DelegateObject()
        other.delegate = DelegateBase()
        other.metatype = String.self
        try expectMatchesLanguage(
            Existentials(), other: other,
            offsets: [
                "any": \.any, "shape": \.shape, "object": \.object, "delegate": \.delegate,
                "composition": \.composition, "classBound": \.classBound, "metatype": \.metatype,
            ])
    }

    @Test func staticAndComputedPropertiesAreAbsent() throws {
        try expectMatchesLanguage(Statics(), offsets: ["stored": \.stored])
        #expect(ClassInfo.of(Statics.self).propertyInfos.map(\.name) == ["stored"])
    }

    @Test func lazyVarsAppearAsTheirStorage() throws {
        try expectMatchesLanguage(LazyHolder(), offsets: ["before": \.before, "after": \.after])
        let info = ClassInfo.of(LazyHolder.self)
        let storage = try #require(info.propertyInfo(named: "$__lazy_storage_$_expensive"))
        #expect(isSame(storage.type, Optional<String>.self))
        var holder = LazyHolder()
        #expect(try storage.get(String?.self, from: holder) == nil)
        _ = holder.expensive
        #expect(try storage.get(String?.self, from: holder) == "computed")
    }

    @Test func propertyWrappersAppearAsTheirStorage() throws {
        try expectMatchesLanguage(Wrapped(), offsets: ["plain": \.plain])
        let info = ClassInfo.of(Wrapped.self)
        let storage = try #require(info.propertyInfo(named: "_level"))
        #expect(isSame(storage.type, Clamped.self))
        #expect(storage.offset == 0)
    }

    @Test func nestedAndPrivateTypes() throws {
        try expectMatchesLanguage(Outer.NestedType(), offsets: ["value": \.value])
        #expect(ClassInfo.of(Outer.NestedType.self).qualifiedName.hasSuffix("Outer.NestedType"))

        let privateInfo = ClassInfo.of(privateTypeForTests())
        for (name, offset) in privateTypeOffsets() {
            #expect(privateInfo.propertyInfo(named: name)?.offset == offset)
        }
        #expect(try privateInfo.propertyInfo(named: "hidden")?.get(from: privateValue()) as? Int == 3)
    }

    @Test func genericStructsWithSeveralSpecialisations() throws {
        try expectMatchesLanguage(Box(value: UInt8(1)), offsets: ["value": \.value, "count": \.count])
        try expectMatchesLanguage(Box(value: "text"), other: Box(value: "other", count: 4), offsets: ["value": \.value, "count": \.count])
        try expectMatchesLanguage(Box(value: Inner()), offsets: ["value": \.value, "count": \.count])
        try expectMatchesLanguage(Pair(first: true, second: 1.5), offsets: ["first": \.first, "second": \.second])
        try expectMatchesLanguage(Pair(first: Int16(1), second: [1]), offsets: ["first": \.first, "second": \.second])
        #expect(ClassInfo.of(Box<UInt8>.self).genericArguments.map(ObjectIdentifier.init) == [ObjectIdentifier(UInt8.self)])
        #expect(
            ClassInfo.of(Pair<Bool, Double>.self).genericArguments.map(ObjectIdentifier.init)
                == [ObjectIdentifier(Bool.self), ObjectIdentifier(Double.self)])
        #expect(isSame(ClassInfo.of(Box<String>.self).propertyInfo(named: "value")?.type, String.self))
        #expect(ClassInfo.of(Box<UInt8>.self) !== ClassInfo.of(Box<String>.self))
    }

    @Test func typeFromAnotherModule() throws {
        let info = ClassInfo.of(CrossModulePoint.self)
        #expect(info.size == MemoryLayout<CrossModulePoint>.size)
        #expect(info.propertyInfo(named: "x")?.offset == MemoryLayout<CrossModulePoint>.offset(of: \.x))
        #expect(info.propertyInfo(named: "secret")?.offset == CrossModulePoint.secretOffset())
        #expect(info.propertyInfo(named: "label")?.isVar == false)
        #expect(info.qualifiedName == "TypeInfoFixtures.CrossModulePoint")
        var point = CrossModulePoint(x: 1, label: "l")
        try info.propertyInfo(named: "secret")?.set(Int8(-3), on: &point)
        #expect(point.secretValue == -3)
    }

    @Test func varAndLet() throws {
        let info = ClassInfo.of(Dog.self)
        #expect(info.propertyInfo(named: "legs")?.isVar == false)
        #expect(info.propertyInfo(named: "name")?.isVar == true)
        #expect(info.propertyInfo(named: "good")?.isVar == false)
    }

    @Test func valueWitnessFlagsMatchTheStandardLibrary() {
        func check<T>(_: T.Type) {
            let flags = ClassInfo.of(T.self).valueWitnessFlags
            #expect(flags.isPOD == _isPOD(T.self), "\(T.self) POD")
            #expect(flags.isBitwiseTakable == _isBitwiseTakable(T.self), "\(T.self) bitwise takable")
        }
        check(MixedScalars.self)
        check(Optionals.self)
        check(Ownerships.self)
        check(String.self)
        check(Int.self)
        check(Box<Referent>.self)
        check(WeakHolder.self)
        #expect(!ClassInfo.of(WeakHolder.self).valueWitnessFlags.isBitwiseTakable)
    }
}
