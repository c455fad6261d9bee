/// A fact of a type's layout whose sources a merged reading records (``TypeLayout/factSources``).
///
/// The raw values are the JSON keys of a type's `sources` object.
public enum TypeFact: String, Hashable, Sendable, CaseIterable, Codable, CodingKeyRepresentable {
    case size, alignment, stride, instanceSize, instanceAlignment, extraInhabitants, enumTagBytes, enumTagSpareBits
}

/// A fact of a field's layout whose sources a merged reading records (``FieldLayout/factSources``).
///
/// The raw values are the JSON keys of a field's `sources` object.
public enum FieldFact: String, Hashable, Sendable, CaseIterable, Codable, CodingKeyRepresentable {
    case offset, size, alignment
}

extension KeyedDecodingContainer {
    /// A `sources` object, keeping the facts this version knows: a document written by a later
    /// version may name facts this one does not, and they say nothing about the facts it reads.
    func decodeFactSources<Fact: RawRepresentable & Hashable>(
        _: Fact.Type, forKey key: Key
    ) throws -> [Fact: [LayoutSource]] where Fact.RawValue == String {
        let stated = try decodeIfPresent([String: [LayoutSource]].self, forKey: key) ?? [:]
        var facts: [Fact: [LayoutSource]] = [:]
        for (name, sources) in stated {
            if let fact = Fact(rawValue: name) { facts[fact] = sources }
        }
        return facts
    }
}

/// A fact of a type or of one of its fields, named in a note about it.
public enum LayoutFactName: Hashable, Sendable, CustomStringConvertible {
    case type(TypeFact)
    /// A fact of the stored property named.
    case field(String, FieldFact)

    /// As a note says it: `instance size`, `field 'x' offset`.
    public var description: String {
        switch self {
        case .type(let fact): return fact.spelled
        case .field(let name, let fact): return "field '\(name)' \(fact.rawValue)"
        }
    }
}

extension TypeFact {
    /// The words a note uses for the fact.
    var spelled: String {
        switch self {
        case .size, .alignment, .stride: return rawValue
        case .instanceSize: return "instance size"
        case .instanceAlignment: return "instance alignment"
        case .extraInhabitants: return "extra inhabitants"
        case .enumTagBytes: return "enum tag bytes"
        case .enumTagSpareBits: return "enum tag spare bits"
        }
    }
}
