#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension RetainersReport: Encodable {
    /// Encodes the report as stable JSON (keys sorted): `schemaVersion`, `target`, `object`,
    /// `reachable`, `holderCount`, `rootCount`, `retainedBytes` (null when not computed),
    /// `lastingPath` (the position in `paths` of the shortest path from a global, thread-local
    /// storage or a mapping; null when none reaches the object) and `paths` (each a list of holders, root first, each with
    /// `kind`, `text` and `shape`, and for an allocation `address`, `size` and `part`).
    public func jsonData(pretty: Bool = true) throws -> Data { try LayoutJSON.encode(self, pretty: pretty) }

    private enum CodingKeys: String, CodingKey {
        case schemaVersion, target, object, reachable, holderCount, rootCount, retainedBytes, lastingPath, paths
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.currentSchemaVersion, forKey: .schemaVersion)
        try container.encode(target, forKey: .target)
        try container.encode(object, forKey: .object)
        try container.encode(isReachable, forKey: .reachable)
        try container.encode(holderCount, forKey: .holderCount)
        try container.encode(rootCount, forKey: .rootCount)
        try container.encode(retainedBytes, forKey: .retainedBytes)
        try container.encode(lastingPath, forKey: .lastingPath)
        try container.encode(paths.map(\.holders), forKey: .paths)
    }
}

extension RetainersReport.Allocation: Encodable {
    private enum CodingKeys: String, CodingKey { case address, size, swiftType, contextCaptures, closure, text }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(address, forKey: .address)
        try container.encode(size, forKey: .size)
        switch kind {
        case .swiftObject(let type): try container.encode(type, forKey: .swiftType)
        case .swiftContext(let captures, let function):
            try container.encode(captures, forKey: .contextCaptures)
            try container.encode(function, forKey: .closure)
        case .malloc: break
        }
        try container.encode(kindText, forKey: .text)
    }
}

extension RetainersReport.Holder: Encodable {
    private enum CodingKeys: String, CodingKey {
        case kind, text, shape, symbol, image, thread, register, address, path, allocation, field, unowned, element, offset, unknown,
            conservative
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(shape, forKey: .shape)
        switch self {
        case .global(let symbol, let image, let address):
            try container.encode("global", forKey: .kind)
            try container.encode(symbol, forKey: .symbol)
            try container.encode(image, forKey: .image)
            try container.encode(address, forKey: .address)
        case .register(let thread, let name):
            try container.encode("register", forKey: .kind)
            try container.encode(thread, forKey: .thread)
            try container.encode(name, forKey: .register)
        case .stack(let thread, let address):
            try container.encode("stack", forKey: .kind)
            try container.encode(thread, forKey: .thread)
            try container.encode(address, forKey: .address)
        case .threadLocalStorage(let thread, let address):
            try container.encode("threadLocalStorage", forKey: .kind)
            try container.encode(thread, forKey: .thread)
            try container.encode(address, forKey: .address)
        case .mapping(let path, let address):
            try container.encode("mapping", forKey: .kind)
            try container.encode(path, forKey: .path)
            try container.encode(address, forKey: .address)
        case .allocation(let allocation, let part):
            try container.encode("allocation", forKey: .kind)
            try container.encode(allocation, forKey: .allocation)
            switch part {
            case .field(let path, let unowned):
                try container.encode(path, forKey: .field)
                try container.encode(unowned, forKey: .unowned)
            case .element(let index): try container.encode(index, forKey: .element)
            case .offset(let offset, let unknown):
                try container.encode(offset, forKey: .offset)
                try container.encode(unknown, forKey: .unknown)
            case .conservative(let offset, let field):
                try container.encode(offset, forKey: .offset)
                try container.encode(true, forKey: .conservative)
                try container.encodeIfPresent(field, forKey: .field)
            }
        }
    }
}

extension RetainerShapes: Encodable {
    /// Encodes the groups as stable JSON: `schemaVersion`, `target`, `type`, `unreachable`,
    /// `groups` (each `shape`, `count`, `example`, `retainedBytes`).
    public func jsonData(pretty: Bool = true) throws -> Data { try LayoutJSON.encode(self, pretty: pretty) }

    private enum CodingKeys: String, CodingKey { case schemaVersion, target, type, unreachable, groups }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.currentSchemaVersion, forKey: .schemaVersion)
        try container.encode(target, forKey: .target)
        try container.encode(type, forKey: .type)
        try container.encode(unreachable, forKey: .unreachable)
        try container.encode(groups, forKey: .groups)
    }
}
