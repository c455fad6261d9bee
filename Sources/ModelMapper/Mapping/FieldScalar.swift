import TypeInfo

/// Which of the common scalar codecs converts a field: the plan's encoder and decoder handle
/// these with concrete code (a typed load or store through the instance's storage, as
/// hand-written code does) and every other field through its binding. Chosen once per plan
/// from the field's codec, for both directions (see ``EncodingSlot`` and ``DecodingSlot``);
/// the concrete code does exactly what the codec's generic path does.
enum FieldScalar: Equatable {
    case string, int, bool, double, date, optionalString, optionalInt, optionalBool
    /// Any other codec, a transformer or a refused property: through the field's binding.
    case other

    init(_ binding: FieldBinding) {
        switch binding.codecObject {
        case is StringCodec: self = .string
        case is IntCodec: self = .int
        case is BoolCodec: self = .bool
        case is DoubleCodec: self = .double
        case is DateCodec: self = .date
        case is OptionalStringCodec: self = .optionalString
        case is OptionalIntCodec: self = .optionalInt
        case is OptionalBoolCodec: self = .optionalBool
        default: self = .other
        }
    }
}
