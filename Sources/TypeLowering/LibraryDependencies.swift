import BinaryInfo
import TypeLayout
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The Swift libraries a file depends on, found the way the dynamic loader would find them:
/// DT_NEEDED names searched in DT_RUNPATH/DT_RPATH (with `$ORIGIN`), the file's own directory,
/// then the toolchain's library directory. Only images with Swift reflection sections are kept:
/// the others hold no types to lower.
public enum LibraryDependencies {
    /// The most libraries followed (a large app links a few dozen Swift libraries).
    static let maximumLibraries = 256

    /// The Swift dependencies of the file at `path`, transitively, in breadth-first order.
    ///
    /// - Parameters:
    ///   - path: the ELF file whose `DT_NEEDED` entries start the search.
    ///   - toolchainDirectory: the toolchain's `usr/lib/swift/linux` directory, searched last.
    /// - Returns: absolute paths (never `path` itself), and a note per DT_NEEDED Swift library not found.
    public static func resolve(forFileAt path: String, toolchainDirectory: String?) -> (paths: [String], notes: [LayoutNote]) {
        resolve(path, info: try? LoadableImage.dependencyInfo(ofFileAt: path), toolchainDirectory: toolchainDirectory)
    }

    /// The Swift dependencies of a file already read, as ``resolve(forFileAt:toolchainDirectory:)``
    /// finds them, from the file's own parse of its headers (the file is not opened again).
    public static func resolve(for file: ImageFile, toolchainDirectory: String?) -> (paths: [String], notes: [LayoutNote]) {
        resolve(file.path, info: try? file.dependencyInfo(), toolchainDirectory: toolchainDirectory)
    }

    private static func resolve(
        _ path: String, info root: (needed: [String], searchPaths: [String], isSwift: Bool)?, toolchainDirectory: String?
    ) -> (paths: [String], notes: [LayoutNote]) {
        var found: [String] = []
        var notes: [LayoutNote] = []
        var seen: Set<String> = [path]
        typealias Info = (needed: [String], searchPaths: [String], isSwift: Bool)
        var queue: [(path: String, info: Info?)] = [(path, root)]
        var position = 0
        while position < queue.count, found.count < maximumLibraries {
            let (current, info) = queue[position]
            position += 1
            guard let info else { continue }
            let origin = directory(of: current)
            var directories = info.searchPaths.map { $0.replacingOrigin(with: origin) }
            directories.append(origin)
            if let toolchainDirectory { directories.append(toolchainDirectory) }
            for needed in info.needed where !needed.isEmpty {
                guard let candidate = directories.lazy.map({ $0 + "/" + needed }).first(where: { access($0, R_OK) == 0 }) else {
                    if needed.hasPrefix("libswift") || needed.hasPrefix("libFoundation") {
                        notes.append(.libraryNotFound(library: needed, neededBy: current, directories: directories))
                    }
                    continue
                }
                guard seen.insert(candidate).inserted else { continue }
                if let dependency = try? LoadableImage.dependencyInfo(ofFileAt: candidate), dependency.isSwift {
                    found.append(candidate)
                    queue.append((candidate, dependency))
                }
            }
        }
        return (found, notes)
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

extension String {
    fileprivate func replacingOrigin(with origin: String) -> String {
        var result = self
        for token in ["${ORIGIN}", "$ORIGIN"] {
            result = result.replacing(token, with: origin)
        }
        return result
    }
}
