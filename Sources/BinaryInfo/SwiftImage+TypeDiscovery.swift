/// Finding type descriptors that `swift5_type_metadata` does not list.
///
/// The compiler emits a type metadata record only for types the runtime may look up by name;
/// others (some private or nested types, types only reachable through a field) still have a
/// context descriptor and usually a field descriptor. A field descriptor names its type by a
/// symbolic reference to the descriptor, and every descriptor names its parent: both lead to
/// descriptors in this image.
extension SwiftImage {
    /// The parent contexts of a context descriptor, nearest first, while they lie in this image.
    ///
    /// Stops at the first parent in another image; throws on a chain longer than
    /// ``maximumChainDepth`` (a cycle in a corrupt file).
    func ancestors(of context: ContextDescriptor) -> ContextAncestors {
        ContextAncestors(image: self, start: context)
    }

    /// Addresses of the struct, class and enum descriptors that field descriptors or parent
    /// chains lead to and that `known` does not hold, in file order of discovery.
    func typeDescriptorsNotListed(known: Set<UInt64>, listed: [TypeDescriptor]) throws(BinaryInfoError) -> [UInt64] {
        var seen = known
        var found: [UInt64] = []
        var queue = listed.map(\.context)
        for address in try fieldDescriptorSubjects() where !seen.contains(address) {
            let context = try contextDescriptor(at: address)
            guard context.isTypeContext else { continue }
            seen.insert(address)
            found.append(address)
            queue.append(context)
        }
        // Parents of listed and found types alike; a found parent is walked in turn.
        var position = 0
        while position < queue.count {
            let context = queue[position]
            position += 1
            for ancestor in ancestors(of: context) {
                let parent = try ancestor.get()
                guard parent.isTypeContext, seen.insert(parent.address).inserted else { continue }
                found.append(parent.address)
                queue.append(parent)
            }
        }
        return found
    }

    /// The in-image descriptors that the field descriptors of `swift5_fieldmd` describe: each
    /// field descriptor's type name that starts with a direct or indirect context reference.
    func fieldDescriptorSubjects() throws(BinaryInfoError) -> [UInt64] {
        var subjects: [UInt64] = []
        for header in try fieldDescriptorAddresses() {
            guard let name = try space.relativeTarget(at: header, what: "field descriptor type name"),
                let subject = try contextReference(at: name)
            else { continue }
            subjects.append(subject)
        }
        return subjects
    }

    /// The address of every field descriptor in `swift5_fieldmd`, in section order.
    ///
    /// Each is a 16-byte header (type name, superclass, kind, record size, record count) followed
    /// by its records; a count that runs past the section's end is an error naming the descriptor.
    func fieldDescriptorAddresses() throws(BinaryInfoError) -> [UInt64] {
        var addresses: [UInt64] = []
        for section in sections["swift5_fieldmd"] ?? [] where section.size >= 16 {
            let end = section.address &+ section.size
            var cursor = section.address
            while cursor < end, end - cursor >= 16 {
                let recordSize = try space.read(UInt16.self, at: cursor &+ 10, what: "field record size")
                let count = try space.read(UInt32.self, at: cursor &+ 12, what: "field count")
                let (span, overflow) = UInt64(count).multipliedReportingOverflow(by: UInt64(recordSize))
                guard !overflow, span <= end - cursor - 16 else {
                    throw BinaryInfoError.malformedRecord(
                        path: path, what: "field descriptor", address: cursor,
                        detail: "\(count) records of \(recordSize) bytes run past the end of swift5_fieldmd")
                }
                addresses.append(cursor)
                cursor = cursor &+ 16 &+ span
            }
        }
        return addresses
    }

    /// The descriptor a mangled name starting with a context reference (0x01 direct, 0x02
    /// indirect) points to, when it is in this image.
    private func contextReference(at name: UInt64) throws(BinaryInfoError) -> UInt64? {
        let kind = try space.read(UInt8.self, at: name, what: "field descriptor type name")
        guard kind == 0x01 || kind == 0x02 else { return nil }
        let offset = try space.read(Int32.self, at: name &+ 1, what: "field descriptor type name")
        guard let target = try space.apply(offset: Int64(offset), to: name &+ 1, what: "field descriptor type name") else {
            return nil
        }
        if kind == 0x01 {
            return space.externalName(at: target) == nil ? target : nil
        }
        guard case .address(let address)? = try space.pointer(at: target, what: "indirect field descriptor type") else { return nil }
        return address
    }
}

/// The parent chain of a context descriptor (see ``SwiftImage/ancestors(of:)``); each element
/// is a parent or the error that ended the walk.
struct ContextAncestors: Sequence, IteratorProtocol {
    let image: SwiftImage
    private var current: PointerTarget?
    private var steps = 0
    private var failed = false

    init(image: SwiftImage, start: ContextDescriptor) {
        self.image = image
        self.current = start.parent
    }

    mutating func next() -> Result<ContextDescriptor, BinaryInfoError>? {
        guard !failed, case .address(let address)? = current else { return nil }
        steps += 1
        guard steps < SwiftImage.maximumChainDepth else {
            failed = true
            return .failure(.referenceCycle(path: image.path, what: "parent context chain", address: address))
        }
        do {
            let context = try image.contextDescriptor(at: address)
            current = context.parent
            return .success(context)
        } catch {
            failed = true
            return .failure(error)
        }
    }
}
