extension TypeLayout {
    /// Whether the type declares generic parameters or sits in a generic context
    /// (`Box<A>.Storage`, whose layout depends on `A` although it declares no parameter itself).
    ///
    /// A reader that knows the nominal mangling says so by it: the printed mangling of a type in
    /// a generic context is bound to the context's parameters (or unknown), never the nominal one.
    /// Without a nominal mangling (a decoded document, DWARF), only declared parameters count.
    public var isGenericOrInGenericContext: Bool {
        if !genericParameters.isEmpty { return true }
        guard let nominalMangledName else { return false }
        return mangledName != nominalMangledName
    }
}
