/// The field types of an imported C struct, for fields whose mangled type BinaryInfo cannot spell
/// (`(Swift.UInt8, …)` tuples and `@convention(c)` functions whose first element is a symbolic
/// reference: spelled out, it shifts the name's later substitutions).
///
/// The library lowers an imported C struct as an opaque block, from the builtin type descriptor
/// the images carry for it (`swift5_builtin`): the C compiler's size, but no fields. In a second
/// context over the file and the standard library, with only the standard library's builtin
/// descriptors (a field of a type from another image stays unknown), it reads the struct's field record
/// instead, resolving the references itself. Only each field's *type* is taken from there, and
/// remangled by the library: that plain mangling is then lowered in the ordinary context, where
/// nested C structs keep the C compiler's size. The second context's offsets are Swift's layout
/// of the record, not the C compiler's, and are not used.
extension LoweringSession {
    /// The fields of the imported C struct `mangling` (without `$s`), each with its type's kind,
    /// size and alignment as the ordinary context lowers the type's remangled name.
    func lowerImportedFields(mangling: String) -> LoweredType {
        let key = LoweringWire.importedFieldsKey(mangling)
        guard mangling.hasPrefix("So"), let records = fieldRecordContext, let typeRef = records.typeRef(mangledName: mangling),
            let info = records.info(of: typeRef), info.kind == .struct
        else {
            return LoweredType(mangling: key, unknownReason: "the reflection library cannot read the struct's field record")
        }
        // The struct's own facts stay with its builtin descriptor: this reply is about its fields.
        var result = LoweredType(mangling: key)
        result.take(info)
        result.appendChildren(
            count: info.fieldCount, reading: { records.child(of: typeRef, at: $0) },
            lowering: { child, entry in
                // The field's type as the ordinary context knows it, through the name the record gives.
                let name = child.typeRef.flatMap { records.mangledName(of: $0) }
                let ordinary = name.flatMap { context.typeRef(mangledName: $0) }.flatMap { restsOnZeroSizedStruct($0, depth: 0) ? nil : $0 }
                let childInfo = ordinary.flatMap { context.info(of: $0) }
                if childInfo != nil { entry.mangledType = name }
                return childInfo
            })
        return result
    }
}
