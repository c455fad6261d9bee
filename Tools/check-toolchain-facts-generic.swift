// A generic type's mangling (`…VyxG`, the declaration bound to its own parameters) names no
// type until its parameters are bound. The runtime binds them from a context: a generic type with
// the same number of parameters at depth 0 and no requirements of its own (`Array`,
// `KeyValuePairs`), with candidate arguments in place of the parameters. The runtime checks the
// type's requirements while it instantiates, so only a combination that satisfies them resolves
// (Tools/check-toolchain-facts).

final class CandidateClass {}
struct CandidateError: Error {}
enum CandidateKey: CodingKey { case key }

/// Arguments that between them meet the common requirements: Hashable and integers (`Int`,
/// `UInt8`), collections and sequences of sequences (`[Int]`, `[[Int]]`), iterators, strings,
/// classes, errors, coding keys, SIMD vectors.
private let candidates: [Any.Type] = [
    Int.self, [Int].self, String.self, CandidateClass.self, CandidateError.self, UInt8.self, [[Int]].self,
    IndexingIterator<[Int]>.self, CandidateKey.self, SIMD2<Int>.self,
]

private func descriptor(of type: Any.Type) -> UnsafeRawPointer? {
    address(type).load(fromByteOffset: 8, as: UnsafeRawPointer?.self)
}

/// `genericresolved 1 <instance name> <argument names>` when some choice of candidate arguments makes the
/// runtime resolve the mangling (and that instance), `genericresolved 0` when none does.
func observeGenericMangling(_ mangled: String, parameters: Int, output: Output) -> Any.Type? {
    let context: UnsafeRawPointer?
    switch parameters {
    case 1: context = descriptor(of: [Int].self)
    case 2: context = descriptor(of: KeyValuePairs<Int, Int>.self)
    default: return nil
    }
    guard let context else { return nil }
    var choices: [[Any.Type]] = candidates.map { [$0] }
    if parameters == 2 { choices = candidates.flatMap { first in candidates.map { [first, $0] } } }
    var name = mangled
    for arguments in choices {
        let pointers = arguments.map { address($0) }
        let metadata = pointers.withUnsafeBufferPointer { buffer in
            name.withUTF8 { getTypeByMangledNameInContext($0.baseAddress!, UInt($0.count), context, UnsafeRawPointer(buffer.baseAddress!)) }
        }
        if let metadata {
            let instance = unsafeBitCast(metadata, to: Any.Type.self)
            // A value parameter (`InlineArray<let count: Int, …>`) took a metadata pointer as its
            // value: the instance is meaningless.
            if bindsValueParameter(_typeName(instance, qualified: true)) {
                output.line("genericresolved", "value")
                return nil
            }
            var parts = ["genericresolved", "1", _typeName(instance, qualified: true)]
            parts += arguments.map { _typeName($0, qualified: true) }
            output.line(parts)
            return instance
        }
    }
    output.line("genericresolved", "0")
    return nil
}

/// Whether a bound name has an integer argument (`Swift.InlineArray<140063392245400, Swift.Int>`).
private func bindsValueParameter(_ name: String) -> Bool {
    let characters = Array(name)
    for (i, character) in characters.enumerated() where character.isNumber && i > 0 {
        let before = characters[i - 1]
        if before == "<" || (before == " " && i > 1 && characters[i - 2] == ",") { return true }
    }
    return false
}
