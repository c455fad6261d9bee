// This file imports TypeInfo only: every type TypeInfo's API returns must be nameable here.
import Testing
import TypeInfo

@Suite struct OneImportTests {
    @Test func everyReturnedTypeIsNameableWithOneImport() throws {
        let info = ClassInfo.of(FinalThing.self)
        let kind: TypeKind = info.kind
        let ownership: Ownership? = info.propertyInfos.first?.ownership
        let layout: TypeLayout = info.layout
        let field: FieldLayout? = layout.fields.first
        let flags: ValueWitnessFlags = info.valueWitnessFlags
        #expect(kind == .class)
        #expect(ownership == .strong)
        #expect(field?.offset == info.propertyInfos.first?.offset)
        #expect(flags.isPOD == false)
    }
}
