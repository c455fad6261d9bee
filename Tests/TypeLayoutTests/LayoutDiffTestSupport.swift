import TypeLayout

/// Builds layouts from real types, so every size and offset in these tests is the compiler's.
enum Measured {
    /// `MemoryLayout` size and alignment of a type known only at run time.
    static func sizeAndAlignment(_ type: Any.Type) -> (size: Int, alignment: Int) {
        func measure<V>(_: V.Type) -> (size: Int, alignment: Int) {
            (MemoryLayout<V>.size, MemoryLayout<V>.alignment)
        }
        return _openExistential(type, do: measure)
    }

    /// The layout of struct `T` with the given stored properties, offsets from
    /// `MemoryLayout.offset(of:)`, field sizes and type names from the key paths' value types.
    static func structLayout<T>(
        _ type: T.Type, name: String, _ fields: [(String, PartialKeyPath<T>)], kind: TypeKind = .struct
    ) -> TypeLayout {
        TypeLayout(
            name: name, kind: kind,
            size: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment, stride: MemoryLayout<T>.stride,
            fields: fields.map { fieldName, keyPath in
                let valueType = Swift.type(of: keyPath).valueType
                return FieldLayout(
                    name: fieldName, type: String(reflecting: valueType),
                    offset: MemoryLayout<T>.offset(of: keyPath), size: sizeAndAlignment(valueType).size
                )
            }
        )
    }

    /// The layout of an enum `T` with the given case names (payload types by name).
    static func enumLayout<T>(_ type: T.Type, name: String, cases: [(String, Any.Type?)]) -> TypeLayout {
        TypeLayout(
            name: name, kind: .enum,
            size: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment, stride: MemoryLayout<T>.stride,
            cases: cases.map { EnumCaseLayout(name: $0.0, payloadType: $0.1.map { String(reflecting: $0) }) }
        )
    }

    /// Alignments of every field type used in these tests, from `MemoryLayout`.
    static func alignments(_ types: [Any.Type]) -> LayoutAlignments {
        var table = LayoutAlignments()
        for type in types { table.set(sizeAndAlignment(type).alignment, for: String(reflecting: type)) }
        return table
    }
}

/// The changes of one kind in a diff.
extension LayoutDiff {
    func changes(_ kind: LayoutChangeKind) -> [LayoutChange] {
        changes.filter { $0.kind == kind }
    }
}
