import BinaryInfo
import TypeLayout

/// Names the functions tasks resume in, from the symbol tables of the target's image files: the
/// symbol that starts exactly at the resume address (a resume partial function is a function of
/// its own), demangled by the runtime's `swift_demangle`.
///
/// An async function's resume points are mangled as the function's own symbol followed by the
/// mangling grammar's partial-function operator, `TQ<index>_` (await resume) or `TY<index>_`
/// (suspend resume). The name given is the function's: the symbol with that operator removed,
/// demangled, and only when the demangler's reading of the whole symbol is exactly
/// `(N) await resume partial function for ` (or `suspend resume`) followed by that name, so the
/// operator removed is the one the demangler saw. Any other symbol is named as it demangles.
///
/// A task waiting for a child or a group resumes first in one of the concurrency runtime's own
/// adapters (C++ functions such as `task_group_wait_resume_adapter`), which only pass the result
/// on to the async function that awaited; the name given for such a task is that function's (the
/// next resume point in its async backtrace).
final class ResumeFunctionNames {
    private let memory: TargetMemory
    /// The load address of the image that holds the concurrency runtime.
    private let runtimeImage: UInt64
    private var symbols: [UInt64: TargetImageSymbols?] = [:]
    private var names: [UInt64: (name: String, isRuntimeAdapter: Bool)?] = [:]

    init(memory: TargetMemory, runtimeImage: UInt64) {
        self.memory = memory
        self.runtimeImage = runtimeImage
    }

    /// The function a task resumes in, given its resume address and its async backtrace: the
    /// first of them that is not a runtime adapter, named; nil when no symbol starts there.
    func resumeFunction(resumeAddress: UInt64, backtrace: [UInt64]) -> String? {
        for address in [resumeAddress] + backtrace {
            guard let found = lookUpOnce(address) else { return nil }
            if !found.isRuntimeAdapter { return found.name }
        }
        return nil
    }

    private func lookUpOnce(_ address: UInt64) -> (name: String, isRuntimeAdapter: Bool)? {
        if let known = names[address] { return known }
        let found = lookUp(address)
        names[address] = found
        return found
    }

    private func lookUp(_ address: UInt64) -> (name: String, isRuntimeAdapter: Bool)? {
        guard let image = memory.image(containing: address) else { return nil }
        if symbols[image.loadAddress] == nil { symbols[image.loadAddress] = .some(try? TargetImageSymbols(image: image)) }
        guard let table = symbols[image.loadAddress] ?? nil else { return nil }
        let candidates = table.names(startingAt: address)
        guard let symbol = candidates.first(where: { $0.hasPrefix("$s") }) ?? candidates.first else { return nil }
        guard symbol.hasPrefix("$s") else { return (symbol, image.loadAddress == runtimeImage) }
        return (Self.functionName(ofSymbol: symbol) ?? SwiftDemangler.demangle(symbol: symbol) ?? symbol, false)
    }

    /// The name of the async function whose resume partial function `symbol` is, or nil when it
    /// is not one.
    static func functionName(ofSymbol symbol: String) -> String? {
        let bytes = Array(symbol.utf8)
        // `…T[QY]<digits>_`
        guard bytes.last == UInt8(ascii: "_") else { return nil }
        var index = bytes.count - 2
        while index >= 0, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index -= 1 }
        guard index >= 1, bytes[index] == UInt8(ascii: "Q") || bytes[index] == UInt8(ascii: "Y"), bytes[index - 1] == UInt8(ascii: "T")
        else { return nil }
        let function = String(decoding: bytes[..<(index - 1)], as: UTF8.self)
        guard let full = SwiftDemangler.demangle(symbol: symbol), let name = SwiftDemangler.demangle(symbol: function) else { return nil }
        for kind in [" await resume partial function for ", " suspend resume partial function for "] {
            guard full.hasSuffix(kind + name), full.hasPrefix("(") else { continue }
            let number = full.dropFirst().prefix { $0 != ")" }
            guard !number.isEmpty, number.allSatisfy(\.isNumber), full == "(\(number))" + kind + name else { continue }
            return unspecializedName(ofSymbol: function, demangled: name)
        }
        return nil
    }

    /// What the demangler says a specialization (`generic specialization <…> of F`, `function
    /// signature specialization <…> of F`) is made from.
    static let specializationPrefixes = ["function signature specialization <", "generic specialization <"]

    /// The name of the function a specialized function's symbol was specialized from, or
    /// `demangled` when it is not a specialization: the specialization operators follow the
    /// function's own mangling (`…F` `Tf4d_n`), so the symbol's prefixes that end before a `T`
    /// are tried, and one is the original when the whole demangles as a specialization prefix,
    /// something, and `> of ` followed by that prefix's demangling.
    static func unspecializedName(ofSymbol symbol: String, demangled: String) -> String {
        guard specializationPrefixes.contains(where: demangled.hasPrefix) else { return demangled }
        let bytes = Array(symbol.utf8)
        for end in stride(from: bytes.count - 1, to: 2, by: -1) where bytes[end] == UInt8(ascii: "T") {
            let prefix = String(decoding: bytes[..<end], as: UTF8.self)
            guard let name = SwiftDemangler.demangle(symbol: prefix), demangled.hasSuffix("> of " + name) else { continue }
            return unspecializedName(ofSymbol: prefix, demangled: name)
        }
        return demangled
    }
}
