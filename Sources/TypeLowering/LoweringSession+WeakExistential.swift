/// Layouts that hold a `weak` class existential (`weak var d: (any P)?`, `weak var o: AnyObject?`).
///
/// The library lowers such a field as the strong existential with its reference made weak, and
/// keeps the strong existential's extra inhabitants (a heap pointer's, 4096). The runtime's weak
/// existential has those of its witness table pointers (2147483647), or none without a witness
/// table. So the extra inhabitants of a type holding one inline are not the library's to state,
/// nor is the layout of an enum whose cases are told apart by them.
extension LoweringSession {
    /// Whether `typeRef` is, or holds inline, a class existential whose reference is weak.
    func holdsWeakExistential(_ typeRef: UInt64) -> Bool {
        holdsInline(typeRef, depth: 0, memo: \.weakExistentialMemo) { typeRef, info in
            // The reference is the record's first field (`object`), then the witness tables.
            info.kind == .classExistential && info.fieldCount > 0 && context.child(of: typeRef, at: 0)?.kind == .weakReference
        }
    }
}
