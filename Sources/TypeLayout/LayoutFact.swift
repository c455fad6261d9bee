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
