import BinaryInfo
import TypeLayout
import TypeLowering

/// Names the holders of retainer paths: a root by where it lies (a global's symbol, a thread's
/// stack or register), an allocation by what it is (a Swift object's dynamic type and the stored
/// property at the offset, array storage's element, a closure context, malloc'd memory).
struct HolderDescriber {
    let inspector: TargetInspector
    let reachability: HeapReachability
    /// Class metadata names already known (the census of `--type`).
    var knownNames: [UInt64: String] = [:]
    private var symbols: [String: TargetImageSymbols?] = [:]
    private var fields: [UInt64: [TargetField]] = [:]
    /// Closure contexts' captures by context metadata (``ContextCaptures``).
    private var captures: [UInt64: [TargetField]] = [:]
    private var contextsAsked: Set<UInt64> = []
    private var resolver: FieldResolver
    private var isSwift: Bool
    /// The first words read again, when the reachability did not keep them.
    private var readFirstWords: [Int: UInt64] = [:]

    init(inspector: TargetInspector, reachability: HeapReachability) {
        self.inspector = inspector
        self.reachability = reachability
        resolver = FieldResolver(inspector: inspector)
        isSwift = inspector.images.contains(where: \.isSwift)
    }

    /// What the allocation at `index` is.
    mutating func allocation(_ index: Int) throws(LiveReadingError) -> RetainersReport.Allocation {
        try learn(about: [index])
        return kindOf(index)
    }

    private func kindOf(_ index: Int) -> RetainersReport.Allocation {
        let word = firstWord(index)
        let kind: RetainersReport.Kind
        if isSwift, inspector.classMetadata(at: word) != nil {
            kind = .swiftObject(type: knownNames[word])
        } else if isSwift, let context = inspector.contextMetadata(at: word) {
            kind = .swiftContext(captures: context.captureCount, function: nil)
        } else {
            kind = .malloc
        }
        return RetainersReport.Allocation(
            address: reachability.addresses[index], size: Int(reachability.sizes[index]), kind: kind,
            captureTypes: captures[word].map { $0.map(\.typeName) })
    }

    /// Asks the reflection library, in one batch each, the names and stored properties of the
    /// classes of the allocations at `indices`.
    private mutating func learn(about indices: some Sequence<Int>) throws(LiveReadingError) {
        if reachability.firstWords.isEmpty {
            let unread = Array(Set(indices).filter { readFirstWords[$0] == nil })
            do throws(BinaryInfoError) {
                for (index, word) in zip(unread, try reachability.firstWords(of: unread)) { readFirstWords[index] = word }
            } catch {
                throw .target(error)
            }
        }
        guard isSwift else { return }
        let indices = Array(indices)
        let firstWords = indices.map { firstWord($0) }
        captures.merge(try ContextCaptures.fields(of: indices, firstWords: firstWords, reachability, inspector, known: contextsAsked)) {
            $1
        }
        contextsAsked.formUnion(firstWords)
        let words = Set(firstWords)
        let classes = words.filter { inspector.classMetadata(at: $0) != nil }
        do throws(TypeLoweringError) {
            let unnamed = classes.filter { knownNames[$0] == nil }
            if !unnamed.isEmpty { knownNames.merge(try inspector.typeNames(ofMetadata: Array(unnamed))) { $1 } }
            let unlisted = classes.filter { fields[$0] == nil }
            if !unlisted.isEmpty {
                let listed = try inspector.storedFields(ofClassesAt: Array(unlisted))
                for metadata in unlisted { fields[metadata] = listed[metadata] ?? [] }
            }
        } catch {
            throw .lowering(error)
        }
    }

    /// The first word of the allocation at `index` (read again by ``learn(about:)`` when not kept).
    private func firstWord(_ index: Int) -> UInt64 {
        reachability.firstWords.isEmpty ? readFirstWords[index] ?? 0 : reachability.firstWords[index]
    }

    /// The holders of each chain.
    mutating func describe(_ chains: [[RetainerPaths.Step]]) throws(LiveReadingError) -> [[RetainersReport.Holder]] {
        var indices: Set<Int> = []
        for chain in chains {
            for case .allocation(let index, _) in chain { indices.insert(index) }
        }
        try learn(about: indices)
        // Each (class, offset) is resolved once, all of them in a few batches.
        var questions: Set<FieldResolver.Question> = []
        for chain in chains {
            for case .allocation(let index, let offset?) in chain {
                let word = firstWord(index)
                if let list = fields[word], !list.isEmpty {
                    questions.insert(.init(metadata: word, offset: offset))
                }
            }
        }
        let parts = try resolver.resolve(questions, fields: fields, names: knownNames)
        var holders: [[RetainersReport.Holder]] = []
        for chain in chains {
            var described: [RetainersReport.Holder] = []
            for (position, step) in chain.enumerated() {
                switch step {
                case .root(let word): described.append(root(word))
                case .allocation(let index, let offset):
                    var allocation = kindOf(index)
                    if position > 0, case .swiftContext(let captures, _) = allocation.kind {
                        allocation.kind = .swiftContext(captures: captures, function: closureFunction(heldAt: chain[position - 1]))
                    }
                    described.append(.allocation(allocation, via: part(of: allocation, index: index, offset: offset, parts: parts)))
                }
            }
            holders.append(described)
        }
        return holders
    }

    /// The function of the closure whose context the word at `step` points to: a closure value
    /// is a function pointer and then its context, so the word before names the function when it
    /// is the start of a function a symbol table names (nil otherwise).
    mutating func closureFunction(heldAt step: RetainerPaths.Step) -> String? {
        let address: UInt64
        switch step {
        case .root(.memory(let word)): address = word
        case .allocation(let index, let offset?): address = reachability.addresses[index] + offset
        default: return nil
        }
        guard address >= 8, let function = try? inspector.memory.read(UInt64.self, at: address - 8, what: "a closure's function pointer"),
            let image = inspector.images.first(where: { $0.addressRange.contains(function) })
        else { return nil }
        if symbols[image.mappedPath] == nil { symbols[image.mappedPath] = .some(try? TargetImageSymbols(image: image)) }
        guard let table = symbols[image.mappedPath] ?? nil, let symbol = table.symbol(containing: function), symbol.isFunction,
            symbol.offset == 0
        else { return nil }
        return SwiftDemangler.demangle(symbol: symbol.name) ?? symbol.name
    }

    private func part(
        of allocation: RetainersReport.Allocation, index: Int, offset: UInt64?, parts: [FieldResolver.Question: RetainersReport.Part]
    ) -> RetainersReport.Part {
        guard let offset else { return .offset(0, unknown: "where in it the pointing word lies was not read") }
        switch allocation.kind {
        case .swiftObject(let type):
            let part = parts[.init(metadata: firstWord(index), offset: offset)]
            // A word where the class's layout has no strong reference: an unowned reference is
            // said as such; any other word held the next only as a pointer-like value.
            if ReferenceWords.isStrong(in: index, at: offset, reachability, memory: inspector.memory) == false {
                // A weak reference is named as its property (said weak where it is listed).
                let isWeak =
                    offset <= UInt64(UInt32.max) && ReferenceWords.plan(of: index, reachability)?.weak.contains(UInt32(offset)) == true
                switch part {
                case .field(_, unowned: true)?: break
                case .field(let path, _)?: if !isWeak { return .conservative(offset, field: path) }
                default: return .conservative(offset, field: nil)
                }
            }
            if let part { return part }
            return .offset(
                offset, unknown: "the reflection library did not list the stored properties of \(type ?? "its class")")
        case .swiftContext:
            if let list = captures[firstWord(index)] {
                return ContextCaptures.part(at: offset, of: index, captures: list, reachability, memory: inspector.memory)
            }
            let first = inspector.contextMetadata(at: firstWord(index))?.offsetToFirstCapture
            return .offset(
                offset,
                unknown: "in a closure context or box"
                    + (first.map { ", whose captures start at +0x\(String($0, radix: 16))" } ?? "") + "; which capture is not read")
        case .malloc:
            return .offset(offset, unknown: "malloc'd memory of no known type")
        }
    }

    /// A root word, named by where it lies.
    private mutating func root(_ word: HeapRootWord) -> RetainersReport.Holder {
        switch reachability.place(of: word) {
        case .register(let thread, let name): return .register(thread: thread, name: name)
        case .image(let path, let address):
            return .global(symbol: symbol(containing: address, imagePath: path), image: Self.fileName(path), address: address)
        case .threadStack(let thread, let address): return .stack(thread: thread, address: address)
        case .threadLocalStorage(let thread, let address): return .threadLocalStorage(thread: thread, address: address)
        case .mapping(let start, _, nil, let address):
            // An image's bss past its file's end is anonymous memory right after the image's
            // mappings: its symbol table says which variable a word there belongs to.
            if let image = inspector.images.first(where: { $0.addressRange.upperBound == start }),
                let name = symbol(containing: address, imagePath: image.mappedPath)
            {
                return .global(symbol: name, image: Self.fileName(image.mappedPath), address: address)
            }
            return .mapping(path: nil, address: address)
        case .mapping(_, _, let path, let address): return .mapping(path: path, address: address)
        }
    }

    /// The symbol whose bytes hold `address`, demangled when it is a Swift symbol.
    private mutating func symbol(containing address: UInt64, imagePath: String) -> String? {
        if symbols[imagePath] == nil {
            let image = inspector.images.first { $0.mappedPath == imagePath }
            symbols[imagePath] = .some(image.flatMap { try? TargetImageSymbols(image: $0) })
        }
        guard let table = symbols[imagePath] ?? nil, let symbol = table.symbol(containing: address) else { return nil }
        return SwiftDemangler.demangle(symbol: symbol.name) ?? symbol.name
    }

    static func fileName(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
}
