import Foundation
import TypeInfo

/// One field as the plan's decoder sees it: the common scalars (``FieldScalar``) read with the
/// binding's own codec and stored with a typed store (as hand-written code does, without the
/// generic path's value temporaries), everything else through the field's binding and its
/// codec's ``ValueCodec/decode(into:_:_:_:_:)``. The references are `Unmanaged` for the reason
/// ``EncodingSlot`` gives: the plan's `fields` keep the bindings, their properties and codecs
/// alive for as long as the plan exists.
struct DecodingSlot {
    let decoding: FieldScalar
    let binding: Unmanaged<FieldBinding>
    let info: Unmanaged<PropertyInfo>
    /// The binding's codec for the concrete cases (the binding itself for ``FieldScalar/other``).
    let codec: Unmanaged<AnyObject>

    init(binding: FieldBinding) {
        self.decoding = FieldScalar(binding)
        self.binding = Unmanaged.passUnretained(binding)
        self.info = Unmanaged.passUnretained(binding.info)
        self.codec = Unmanaged.passUnretained(binding.codecObject ?? binding)
    }

    /// Reads the node at `node` and stores it in the field. Errors are the binding's: a
    /// ``MappingError`` as the codec threw it, a TypeInfo access error made one.
    @inline(__always)
    func decode(into storage: MutableInstanceStorage, _ tape: JSONTape, _ node: Int, _ context: DecodeContext) throws {
        do {
            switch decoding {
            case .string: try store(StringCodec.self, storage, tape, node, context)
            case .int: try store(IntCodec.self, storage, tape, node, context)
            case .bool: try store(BoolCodec.self, storage, tape, node, context)
            case .double: try store(DoubleCodec.self, storage, tape, node, context)
            case .date: try store(DateCodec.self, storage, tape, node, context)
            case .optionalString: try store(OptionalStringCodec.self, storage, tape, node, context)
            case .optionalInt: try store(OptionalIntCodec.self, storage, tape, node, context)
            case .optionalBool: try store(OptionalBoolCodec.self, storage, tape, node, context)
            case .other:
                // The binding converts its own access errors.
                return try binding._withUnsafeGuaranteedRef { try $0.decode(into: storage, tape, node, context) }
            }
        } catch let error as MappingError {
            throw error
        } catch {
            throw binding._withUnsafeGuaranteedRef { $0.accessError(error) }
        }
    }

    /// The concrete read and typed store: `Codec` is final, so both calls are direct.
    @inline(__always)
    private func store<Value, Codec: ValueCodec<Value>>(
        _: Codec.Type, _ storage: MutableInstanceStorage, _ tape: JSONTape, _ node: Int, _ context: DecodeContext
    ) throws {
        let value = try codec._withUnsafeGuaranteedRef { try unsafeDowncast($0, to: Codec.self).decode(tape, node, context) }
        try info._withUnsafeGuaranteedRef { try storage.set(value, for: $0) }
    }
}
