// Carrying out a ValueRecipe (ClassInfo+Factory.swift) in raw memory. The recipe was checked
// completely before this runs, so building cannot fail half-way: every field is initialized
// exactly once, with values whose types are opened from their metadata, so reference counts
// are those of ordinary Swift code. The only TypeInfo code that initializes fresh memory.

enum InstanceFactoryMemory {
    /// A new value of `T` built by `recipe`.
    static func build<T>(_: T.Type, _ recipe: ValueRecipe) -> T {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment)
        defer { buffer.deallocate() }
        initialize(recipe, at: buffer)
        return buffer.assumingMemoryBound(to: T.self).move()
    }

    /// Initializes the uninitialized memory at `address` as `recipe` says.
    static func initialize(_ recipe: ValueRecipe, at address: UnsafeMutableRawPointer) {
        switch recipe {
        case .zero(let type):
            func store<Z: ZeroValueConstructible>(_: Z.Type) { address.initializeMemory(as: Z.self, to: Z.zeroValue) }
            store(type)
        case .initializer(let type):
            func store<D: DefaultInitializable>(_: D.Type) { address.initializeMemory(as: D.self, to: D()) }
            store(type)
        case .fields(let fields):
            for field in fields { initialize(field.recipe, at: address + field.offset) }
        case .object(let cls, let size, let alignment, let fields):
            // +1, header set; the reference stored here owns it.
            let object = ReferenceStorageRuntime.shared.allocObject(unsafeBitCast(cls, to: UnsafeRawPointer.self), size, alignment - 1)
            for field in fields { initialize(field.recipe, at: object + field.offset) }
            address.storeBytes(of: object, as: UnsafeMutableRawPointer.self)
        case .nullReference(let size):
            address.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        case .enumCase(let witnesses, let shape, let payload):
            if let payload {
                if shape.isIndirect, let payloadType = shape.payloadType {
                    func box<P>(_: P.Type) {
                        IndirectPayload<P>.initialize(at: address, with: build(P.self, payload))
                    }
                    box(payloadType)
                } else {
                    initialize(payload, at: address)
                }
            }
            witnesses.inject(tag: shape.tag, at: address)
        case .template(let template):
            template.copy(to: address)
        }
    }
}

/// A value built once from a recipe, copied (through its type's value witnesses) into every
/// value built after. The factory keeps the recipes that hold templates for the life of the
/// process; a template made while working out a recipe that then fails is released, and with it
/// its value.
final class ValueTemplate: @unchecked Sendable {
    // Immutable after init; copies only read the template.
    private let copyValue: (UnsafeMutableRawPointer) -> Void
    private let destroyValue: () -> Void

    init(_ type: Any.Type, recipe: ValueRecipe) {
        func make<T>(_: T.Type) -> (copy: (UnsafeMutableRawPointer) -> Void, destroy: () -> Void) {
            let value = UnsafeMutablePointer<T>.allocate(capacity: 1)
            InstanceFactoryMemory.initialize(recipe, at: UnsafeMutableRawPointer(value))
            // One value, not `from:count:`: that copies a whole stride, which runs past a value
            // whose size is less than its stride (an enum's tag byte) into the next field.
            return (
                { $0.initializeMemory(as: T.self, to: value.pointee) },
                {
                    value.deinitialize(count: 1)
                    value.deallocate()
                }
            )
        }
        (copyValue, destroyValue) = make(type)
    }

    deinit {
        destroyValue()
    }

    /// Initializes the memory at `address` with a copy of the template.
    func copy(to address: UnsafeMutableRawPointer) {
        copyValue(address)
    }
}
