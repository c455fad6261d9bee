// Reading and building enum values through the enum's own value witnesses (getEnumTag,
// destructiveProjectEnumData, destructiveInjectEnumTag; include/swift/ABI/ValueWitness.def),
// the functions the runtime's Mirror uses. Every value passes through a buffer typed as the
// enum itself, so copies and destruction go through the enum's ordinary value witnesses and
// reference counts stay right. The only TypeInfo code that touches enum value memory.

/// The three enum functions of an enum's value witness table.
///
/// They are `swiftcc` functions whose parameters are pointers and a 32-bit integer: on x86-64
/// and arm64 such arguments travel in the same registers as under the C convention.
struct EnumWitnessFunctions: @unchecked Sendable {
    typealias GetTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
    typealias ProjectPayload = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
    typealias InjectTag = @convention(c) (UnsafeMutableRawPointer, UInt32, UnsafeRawPointer) -> Void

    /// The enum's metadata, the last argument of every witness.
    let metadata: UnsafeRawPointer
    let getTag: GetTag
    let projectPayload: ProjectPayload
    let injectTag: InjectTag
}

/// A case's payload as the witnesses leave it: the case index, the payload type and whether it
/// lives in a heap box.
struct EnumPayloadShape {
    var tag: UInt32
    var payloadType: Any.Type?
    var isIndirect: Bool
}

extension EnumWitnessFunctions {
    /// The tag (index into the runtime's case order: payload cases first) of `value`.
    func tag<E>(of value: E) -> UInt32 {
        withUnsafeBytes(of: value) { bytes in
            getTag(bytes.baseAddress ?? UnsafeRawPointer(zeroSizedValueAddress), metadata)
        }
    }

    /// A copy of the payload of `value`, whose case is `shape`; nil for a case without payload.
    func payload<E>(of value: E, shape: EnumPayloadShape) -> Any? {
        guard let payloadType = shape.payloadType else { return nil }
        return withTemporaryCopy(of: value) { raw in
            // Projection clears tag bits stored in the payload's spare bits; injecting the tag
            // again afterwards makes the buffer a valid enum for its deinitialization.
            projectPayload(raw, metadata)
            defer { injectTag(raw, shape.tag, metadata) }
            func copy<P>(_: P.Type) -> Any {
                shape.isIndirect ? IndirectPayload<P>.value(at: raw) : raw.assumingMemoryBound(to: P.self).pointee
            }
            return copy(payloadType)
        }
    }

    /// Builds a value of `E` in case `shape`, with `payload` (already of the payload type) as
    /// its payload.
    func make<E>(_: E.Type, shape: EnumPayloadShape, payload: Any?) -> E {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<E>.size, alignment: MemoryLayout<E>.alignment)
        defer { buffer.deallocate() }
        if let payloadType = shape.payloadType, let payload {
            initializePayload(payload, of: payloadType, indirect: shape.isIndirect, at: buffer)
        }
        injectTag(buffer, shape.tag, metadata)
        return buffer.assumingMemoryBound(to: E.self).move()
    }

    /// Initializes the payload area at `address` (the enum's first byte) with `payload`, which
    /// the caller has checked is a `payloadType`; indirect payloads get a fresh heap box.
    func initializePayload(_ payload: Any, of payloadType: Any.Type, indirect: Bool, at address: UnsafeMutableRawPointer) {
        func store<P>(_: P.Type) {
            guard let value = payload as? P else { return }
            if indirect {
                IndirectPayload<P>.initialize(at: address, with: value)
            } else {
                address.initializeMemory(as: P.self, to: value)
            }
        }
        store(payloadType)
    }

    /// Sets the tag of an enum whose payload (if any) is initialized at `address`.
    func inject(tag: UInt32, at address: UnsafeMutableRawPointer) {
        injectTag(address, tag, metadata)
    }
}

/// An indirect payload as the compiler lays it out: one reference to a heap box holding a
/// `P` (`swift_allocBox`'s box, whose contents follow the header at `P`'s alignment). A
/// one-case indirect enum has exactly that layout, so Swift allocates, reads and releases the
/// box for us.
indirect enum IndirectPayload<P> {
    case value(P)

    /// Initializes the payload area at `address` with a new box holding `value`.
    static func initialize(at address: UnsafeMutableRawPointer, with value: P) {
        address.initializeMemory(as: IndirectPayload<P>.self, to: .value(value))
    }

    /// A copy of the value in the box referenced at `address`.
    static func value(at address: UnsafeRawPointer) -> P {
        switch address.assumingMemoryBound(to: IndirectPayload<P>.self).pointee {
        case .value(let value): return value
        }
    }
}
