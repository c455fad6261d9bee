import TypeLayout

extension LibraryManglings.GenericArguments {
    /// The arguments of a parameterized existential's generalization parameters in a field of
    /// the instantiation whose arguments are `instantiation`, as the compiler's field record binds
    /// them.
    ///
    /// The compiler spells such an existential in a field record as a reference to its shape
    /// followed by the shape's generalization arguments and `Xj`: `any Handler<Context>` in
    /// `Routes<Tag, Context>` is `<shape> q_ Xj`, the shape's first parameter bound to the type's
    /// second (`B`). The reflection library spells the existential with the shape's own
    /// parameters (`x` for the first), so each is bound to the instantiation's argument for the
    /// generic parameter the record names in its place.
    ///
    /// Each argument of the record must be a generic parameter the runtime's demangler names as
    /// its depth and index say (`x` `A`, `q_` `B`, `qd__` `A1`), and every parameterized existential
    /// of the field must be generalized over the same ones (which of the library's spellings is
    /// which existential's is not told otherwise).
    ///
    /// - Parameters:
    ///   - recordArguments: each parameterized existential's generalization arguments in the
    ///     field's record, in order, as the record spells them before `Xj` (nil for one that holds
    ///     a reference that is not spelled: ``TargetInspector/existentialArguments(ofDescriptor:)``).
    ///   - instantiation: the confirmed generic arguments of the instantiation's own parameters
    ///     (at its ``LibraryManglings/GenericArguments/depth``).
    /// - Returns: the existential's arguments, or why they are not known.
    public static func ofExistential(recordArguments: [String?], in instantiation: Self) -> Result<Self, LibraryManglings.Unbound> {
        guard let first = recordArguments.first else {
            return .failure(.init("the compiler's field record holds no parameterized existential for it"))
        }
        guard let text = first, recordArguments.allSatisfy({ $0 == text }) else {
            return .failure(
                .init(
                    recordArguments.contains(nil)
                        ? "the compiler's field record binds its existential to a type it spells by reference"
                        : "its parameterized existentials are generalized over different generic parameters, "
                            + "and which of the library's spellings is which is not known"))
        }
        let bytes = Array(text.utf8)
        var manglings: [String] = []
        var names: [String] = []
        var start = 0
        while start < bytes.count {
            guard let (depth, index, length) = LibraryManglings.parameterReference(in: bytes, at: start) else {
                return .failure(
                    .init("the compiler's field record binds its existential to a type that is not a generic parameter (\(text))"))
            }
            let token = String(decoding: bytes[start..<(start + length)], as: UTF8.self)
            let expected = String(UnicodeScalar(UInt8(ascii: "A") + UInt8(min(index, 25)))) + (depth == 0 ? "" : "\(depth)")
            guard index < 26, SwiftDemangler.demangle(symbol: "$s" + token + "D") == expected else {
                return .failure(.init("the runtime's demangler does not name the field record's generic parameter \(token) \(expected)"))
            }
            guard depth == instantiation.depth else {
                return .failure(
                    .init(
                        "its existential is of a generic parameter of an enclosing generic type (\(expected)), "
                            + "whose generic arguments the reflection library does not give"))
            }
            guard index < instantiation.manglings.count else {
                return .failure(
                    .init(
                        "the field record's generic parameter \(expected) is not among the instantiation's \(instantiation.manglings.count)"
                    ))
            }
            manglings.append(instantiation.manglings[index])
            names.append(instantiation.names[index])
            start += length
        }
        guard !manglings.isEmpty else { return .failure(.init("the compiler's field record binds its existential to no argument")) }
        return .success(Self(manglings: manglings, names: names))
    }
}
