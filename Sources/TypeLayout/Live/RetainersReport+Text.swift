extension RetainersReport.Holder {
    /// The holder with its addresses: `LiveLeaks.Store 0x5555… .things`.
    public var text: String {
        switch self {
        case .global(let symbol, let image, let address):
            return "global " + (symbol ?? "<no symbol covers 0x\(String(address, radix: 16))>") + " (\(image))"
        case .register(let thread, let name): return "register \(name) of thread \(thread)"
        case .stack(let thread, let address): return "stack of thread \(thread) at 0x\(String(address, radix: 16))"
        case .threadLocalStorage(let thread, let address):
            return "thread-local storage or control block of thread \(thread) at 0x\(String(address, radix: 16))"
        case .mapping(let path, let address): return "mapping \(path ?? "(anonymous)") at 0x\(String(address, radix: 16))"
        case .allocation(let allocation, let part): return allocation.text + " " + part.text
        }
    }

    /// The holder without addresses or element indices: what ``RetainerShapes`` groups by.
    public var shape: String {
        switch self {
        case .global(let symbol, let image, _): return "global " + (symbol ?? "<no symbol>") + " (\(image))"
        case .register(let thread, let name): return "register \(name) of thread \(thread)"
        case .stack(let thread, _): return "a stack frame of thread \(thread)"
        case .threadLocalStorage(let thread, _): return "thread-local storage or control block of thread \(thread)"
        case .mapping(let path, _): return "mapping \(path ?? "(anonymous)")"
        case .allocation(let allocation, let part):
            let name = allocation.kindText
            switch part {
            case .field(let path, let unowned): return name + "." + path.joined(separator: ".") + (unowned ? " (unowned)" : "")
            case .element: return name + " → element"
            case .offset(let offset, _): return name + " +0x" + String(offset, radix: 16)
            case .conservative(let offset, _): return name + " +0x" + String(offset, radix: 16) + " (no reference; counted conservatively)"
            }
        }
    }
}

extension RetainersReport.Allocation {
    /// What the allocation is, without its address.
    public var kindText: String {
        switch kind {
        case .swiftObject(let type): return type ?? "<Swift object of an unnamed class>"
        case .swiftContext(let captures, let function):
            return "closure context or box (\(captures) captured values" + (function.map { ", of " + $0 } ?? "") + ")"
        case .malloc: return "malloc'd block (\(size) bytes)"
        }
    }

    /// What the allocation is and where.
    public var text: String { kindText + " 0x" + String(address, radix: 16) }
}

extension RetainersReport.Part {
    public var text: String {
        switch self {
        case .field(let path, let unowned): return "." + path.joined(separator: ".") + (unowned ? " (unowned)" : "")
        case .element(let index): return "element \(index)"
        case .offset(let offset, let unknown): return "+0x" + String(offset, radix: 16) + " (\(unknown))"
        case .conservative(let offset, let field):
            return "+0x" + String(offset, radix: 16) + " ("
                + (field.map { "in ." + $0.joined(separator: ".") + ", " } ?? "") + "a word that is no reference; counted conservatively)"
        }
    }
}

extension HeapCensus.Target {
    /// The first line of a report of a stopped process or a core, saying why it was stopped.
    func stoppedHeadline(_ command: String) -> String {
        if corePath != nil { return name + ", as it was when dumped" }
        return name + ", " + (stop?.phrase ?? "stopped while it was read")
            + ": \(command) holds the process still while it reads, since a pointer moved during the reading could hide or invent a path"
    }
}

extension RetainersReport {
    /// The report as text: the object, then each path, one holder a line, root first.
    public var text: String {
        var lines = [target.stoppedHeadline("retainers"), ""]
        lines.append(
            "\(object.text) (\(object.size) bytes"
                + (retainedBytes.map { "; retains \($0) bytes: itself and what only it holds" } ?? "") + ")")
        guard isReachable else {
            lines.append("no root reaches it: it is leaked (`typeinfo leaks` lists every allocation no root reaches)")
            return lines.joined(separator: "\n") + "\n"
        }
        let throughHolders = paths.count - (lastingPathAdded ? 1 : 0)
        lines.append(
            "held by \(rootCount) root word\(rootCount == 1 ? "" : "s") and \(holderCount) allocation\(holderCount == 1 ? "" : "s") a root reaches; the shortest path through each of \(throughHolders) of these holders"
                + (lastingPathAdded
                    ? ", and the shortest from a global (else from thread-local storage or a mapping):" : ":")
        )
        for (number, path) in paths.enumerated() {
            lines.append("")
            let steps = "\(path.holders.count) step\(path.holders.count == 1 ? "" : "s")"
            lines.append(
                "path \(number + 1) (" + steps
                    + (number == lastingPath ? "; the shortest from a global, else from thread-local storage or a mapping" : "") + "):")
            for holder in path.holders { lines.append("  " + holder.text) }
            lines.append("  → " + object.text)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension RetainerShapes {
    /// One line per shape: the count, then the holders, root first.
    public var text: String {
        var lines = [target.stoppedHeadline("retainers"), ""]
        let total = groups.reduce(0) { $0 + $1.count }
        lines.append(
            "\(total + unreachable) objects of type \(type): \(total) reached from a root, \(unreachable) not (see `typeinfo leaks`)")
        for group in groups {
            lines.append(
                "\(group.count) held through " + group.shape.joined(separator: " → ") + " (e.g. 0x\(String(group.example, radix: 16))"
                    + (group.retainedBytes.map { "; retaining \($0) bytes" } ?? "") + ")")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
