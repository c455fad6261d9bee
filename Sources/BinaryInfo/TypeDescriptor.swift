/// A struct, class or enum descriptor (`TargetTypeContextDescriptor` and its kind-specific tails).
///
/// Offsets (Metadata.h): name +8, access function +12, field descriptor +16; then
/// struct: field count +20, field offset vector offset +24;
/// enum: payload cases +20, empty cases +24 (not read: the field descriptor lists the cases);
/// class: superclass mangled name +20, field count +36, field offset vector offset +40.
struct TypeDescriptor {
    let context: ContextDescriptor
    let name: String
    let fieldDescriptor: UInt64?
    let fieldCount: UInt32
    /// In words from the start of the metadata.
    let fieldOffsetVectorOffset: UInt32
    let superclassMangling: MangledName?
    /// Generic parameters this type and its enclosing contexts declare, in total.
    let genericParameterCount: Int

    var address: UInt64 { context.address }
    var kind: ContextKind? { context.kind }
}

extension SwiftImage {
    /// Reads the type descriptor at `address`.
    ///
    /// - Throws: ``BinaryInfoError`` when it is not a struct, class or enum descriptor or lies outside the image.
    func typeDescriptor(at address: UInt64) throws(BinaryInfoError) -> TypeDescriptor {
        try typeDescriptor(of: try contextDescriptor(at: address))
    }

    /// Reads the rest of the type descriptor whose head is `context`.
    ///
    /// - Throws: ``BinaryInfoError`` when it is not a struct, class or enum descriptor or lies outside the image.
    func typeDescriptor(of context: ContextDescriptor) throws(BinaryInfoError) -> TypeDescriptor {
        let address = context.address
        guard context.isTypeContext else {
            throw BinaryInfoError.malformedRecord(
                path: path, what: "type descriptor", address: address,
                detail: "context kind \(context.rawKind) is not a struct, class or enum")
        }
        let name = try relativeString(at: address &+ 8, what: "type name") ?? ""
        let fields = try space.relativeTarget(at: address &+ 16, what: "field descriptor pointer")
        var fieldCount: UInt32 = 0
        var vectorOffset: UInt32 = 0
        var superclass: MangledName?
        let genericHeader: UInt64
        switch context.kind {
        case .struct:
            fieldCount = try space.read(UInt32.self, at: address &+ 20, what: "struct field count")
            vectorOffset = try space.read(UInt32.self, at: address &+ 24, what: "struct field offset vector offset")
            genericHeader = address &+ 28
        case .enum:
            // Case counts (+20, +24) are not needed: the field descriptor lists the cases.
            genericHeader = address &+ 28
        default:
            superclass = try resolvedMangledName(at: address &+ 20, what: "superclass name")
            fieldCount = try space.read(UInt32.self, at: address &+ 36, what: "class field count")
            vectorOffset = try space.read(UInt32.self, at: address &+ 40, what: "class field offset vector offset")
            genericHeader = address &+ 44
        }
        var parameters = 0
        if context.isGeneric {
            // TypeGenericContextDescriptorHeader: instantiation cache, default pattern, then the
            // GenericContextDescriptorHeader whose first field is the parameter count.
            parameters = Int(try space.read(UInt16.self, at: genericHeader &+ 8, what: "generic parameter count"))
        }
        return TypeDescriptor(
            context: context, name: name, fieldDescriptor: fields, fieldCount: fieldCount,
            fieldOffsetVectorOffset: vectorOffset, superclassMangling: superclass,
            genericParameterCount: parameters
        )
    }

    /// The generic parameters a context's enclosing contexts declare, and how many generic
    /// levels they span (the demangler names depth-0 parameters `A, B`, depth-1 `A1, B1`).
    ///
    /// Anonymous contexts (private and local scopes) repeat the signature of what they wrap,
    /// so they are skipped.
    func inheritedGenericParameters(of descriptor: ContextDescriptor) throws(BinaryInfoError) -> (count: Int, depth: Int) {
        var totals: [Int] = []
        for ancestor in ancestors(of: descriptor) {
            let context = try ancestor.get()
            if context.isGeneric, context.kind != .anonymous {
                totals.append(try totalGenericParameters(of: context))
            }
        }
        // Nearest first: the nearest generic ancestor's total counts every outer parameter;
        // each ancestor that adds parameters to its own parent's is one more level.
        var levels = 0
        for (index, total) in totals.enumerated() {
            let outer = index + 1 < totals.count ? totals[index + 1] : 0
            if total > outer { levels += 1 }
        }
        return (totals.first ?? 0, levels)
    }

    /// Names generic parameters the way the runtime's demangler prints them: `A`, `B`, … at depth 0, `A1` at depth 1.
    static func genericParameterNames(count: Int, depth: Int) -> [String] {
        (0..<max(count, 0)).map { index in
            let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
            let letter = index < letters.count ? String(letters[index]) : "T\(index)"
            return depth == 0 ? letter : letter + String(depth)
        }
    }
}
