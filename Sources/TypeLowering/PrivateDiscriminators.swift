import BinaryInfo
import Synchronization
import TypeLayout

/// The private discriminators of a target's private types, so that their live names are the
/// ones a file's reading gives (`Mod.(Secret in _B96A…)`), the same in every run.
///
/// The reflection library names a private type by the address of its anonymous parent context
/// (`Mod.(Secret in $55d0c2a1f3cc)`), which changes from run to run. The discriminator is in the
/// descriptor symbols of the image (`$s3Mod6Secret33_B96A…LLCMn`): a type descriptor of the
/// image's `swift5_type_metadata` whose parent is that context has one, demangled by the runtime.
final class PrivateDiscriminators: Sendable {
    let memory: TargetMemory
    /// Discriminators by anonymous context address (nil: none found).
    private let known = Mutex<[UInt64: String?]>([:])

    init(memory: TargetMemory) {
        self.memory = memory
    }

    /// `mangling` with each identifier `$<hex>` of a private name (`…13$55d0c2a1f3ccLL…`) replaced
    /// by the discriminator of the context at that address; one that cannot be found is left as
    /// it is.
    func resolved(_ mangling: String) -> String {
        let bytes = Array(mangling.utf8)
        guard bytes.contains(UInt8(ascii: "$")) else { return mangling }
        var output: [UInt8] = []
        var copied = 0
        var index = 0
        while index < bytes.count {
            defer { index += 1 }
            guard bytes[index] == UInt8(ascii: "$") else { continue }
            var end = index + 1
            while end < bytes.count, hexValue(bytes[end]) != nil { end += 1 }
            let hexCount = end - index - 1
            guard hexCount > 0, hexCount <= 16, end + 1 < bytes.count, bytes[end] == UInt8(ascii: "L"), bytes[end + 1] == UInt8(ascii: "L")
            else { continue }
            // The length prefix: the shortest run of digits before `$` that counts the identifier.
            let length = String(hexCount + 1)
            let prefixStart = index - length.utf8.count
            guard prefixStart >= copied, bytes[prefixStart..<index].elementsEqual(length.utf8) else { continue }
            let address = bytes[(index + 1)..<end].reduce(UInt64(0)) { $0 << 4 | UInt64(hexValue($1) ?? 0) }
            guard let discriminator = discriminator(ofContextAt: address) else { continue }
            output += bytes[copied..<prefixStart]
            output += Array("\(discriminator.utf8.count)\(discriminator)".utf8)
            copied = end
            index = end - 1
        }
        guard copied > 0 else { return mangling }
        output += bytes[copied...]
        return String(decoding: output, as: UTF8.self)
    }

    private func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    /// The discriminator (`_B96A…`) of the private scope whose anonymous context descriptor is at
    /// `address`, or nil.
    func discriminator(ofContextAt address: UInt64) -> String? {
        if let found = known.withLock({ $0[address] }) { return found }
        let found = find(address)
        known.withLock { $0[address] = found }
        return found
    }

    private func find(_ context: UInt64) -> String? {
        guard let image = memory.image(containing: context), let section = image.section("swift5_type_metadata"),
            section.count <= 1 << 26
        else { return nil }
        var candidates: [(descriptor: UInt64, name: String)] = []
        var record = section.lowerBound
        while record + 4 <= section.upperBound {
            defer { record += 4 }
            guard let offset = try? memory.read(Int32.self, at: record, what: "type metadata record"),
                offset & 3 == 0  // a direct reference to a descriptor
            else { continue }
            let descriptor = UInt64(bitPattern: Int64(bitPattern: record) &+ Int64(offset))
            guard parent(of: descriptor) == context,
                let nameOffset = try? memory.read(Int32.self, at: descriptor &+ 8, what: "type descriptor name"),
                let name = memory.cString(at: UInt64(bitPattern: Int64(bitPattern: descriptor &+ 8) &+ Int64(nameOffset)))
            else { continue }
            candidates.append((descriptor, name))
        }
        guard !candidates.isEmpty, let symbols = try? TargetImageSymbols(image: image) else { return nil }
        for (descriptor, name) in candidates {
            for symbol in symbols.names(startingAt: descriptor) {
                guard let text = SwiftDemangler.demangle(symbol: symbol), text.hasPrefix("nominal type descriptor for ") else { continue }
                if let discriminator = Self.discriminator(in: text, name: name) { return discriminator }
            }
        }
        return nil
    }

    /// The `_…` of `(name in _…)` in a demangled name.
    static func discriminator(in text: String, name: String) -> String? {
        let opening = Array("(\(name) in ".utf8)
        let bytes = Array(text.utf8)
        var index = 0
        while index + opening.count < bytes.count {
            defer { index += 1 }
            guard bytes[index..<(index + opening.count)].elementsEqual(opening) else { continue }
            let start = index + opening.count
            guard let close = bytes[start...].firstIndex(of: UInt8(ascii: ")")), close > start,
                bytes[start] == UInt8(ascii: "_")
            else { continue }
            let discriminator = bytes[start..<close]
            guard discriminator.allSatisfy({ $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) })
            else { return nil }
            return String(decoding: discriminator, as: UTF8.self)
        }
        return nil
    }

    /// A context descriptor's parent (its second word: a relative pointer, indirect when its low bit is set).
    private func parent(of descriptor: UInt64) -> UInt64? {
        guard let offset = try? memory.read(Int32.self, at: descriptor &+ 4, what: "context descriptor parent"), offset != 0 else {
            return nil
        }
        let target = UInt64(bitPattern: Int64(bitPattern: descriptor &+ 4) &+ Int64(offset & ~1))
        guard offset & 1 != 0 else { return target }
        return try? memory.read(UInt64.self, at: target, what: "context descriptor parent")
    }
}
