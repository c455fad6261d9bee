import Testing
import TypeInfoFixtures
@testable import TypeInfo

/// ClassInfo reads stored properties from each type's own field records and offset vector;
/// the runtime's reflection (the entry points `Mirror` uses) is the second witness. Every
/// fact must agree for every kind of field: generic, weak/unowned, lazy, wrapped, closures,
/// existentials, cross-module and subclass fields.
@Suite struct FieldRecordCrossCheckTests {
    static let types: [Any.Type] = [
        EmptyStruct.self, MixedScalars.self, Nested.self, Optionals.self, Collections.self, Tuples.self,
        Closures.self, Existentials.self, LazyHolder.self, Wrapped.self, Statics.self, WeakHolder.self,
        Box<Int>.self, Box<String?>.self, Pair<Inner, [Double]>.self, GenericNode<String>.self,
        Animal.self, Mammal.self, Dog.self, FinalThing.self, Ownerships.self, TrackedOwner.self, PingerOwner.self,
        CrossModulePoint.self, SubclassOfOtherModule.self, FactoryPerson.self, FactoryPet.self, privateTypeForTests(),
    ]

    @Test(arguments: types.map { TypeBox($0) })
    func ownRecordsAgreeWithReflection(_ box: TypeBox) throws {
        let info = ClassInfo.of(box.type)
        let reader = MetadataReader(box.type)
        let inherited = info.superclassInfo?.propertyInfos ?? []
        let reflected = ClassInfo.readPropertiesThroughReflection(of: box.type, inheriting: inherited, reader: reader)
        #expect(info.propertyInfos.count == reflected.count, "\(info.qualifiedName)")
        for (read, oracle) in zip(info.propertyInfos, reflected) {
            #expect(read.name == oracle.name)
            #expect(read.offset == oracle.offset, "\(info.qualifiedName).\(read.name)")
            #expect(
                ObjectIdentifier(read.type) == ObjectIdentifier(oracle.type),
                "\(info.qualifiedName).\(read.name): \(read.type) vs \(oracle.type)")
            #expect(read.isVar == oracle.isVar, "\(info.qualifiedName).\(read.name)")
            #expect(read.ownership == oracle.ownership, "\(info.qualifiedName).\(read.name)")
        }
        // The direct reader vouched for this type (no silent fallback for these cases).
        if info.kind == .struct || info.kind == .class {
            #expect(reader.ownStoredFields() != nil, "\(info.qualifiedName) read from its own records")
        }
    }
}

/// A metatype in a `Sendable`, `CustomStringConvertible` wrapper, for parameterized tests.
struct TypeBox: Sendable, CustomStringConvertible {
    let type: Any.Type
    init(_ type: Any.Type) { self.type = type }
    var description: String { String(reflecting: type) }
}
