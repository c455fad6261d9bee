import BinaryInfo
import SystemPackage

/// The worker's target mode (``TargetWire``): it opens the target itself (a process or a core
/// file, with the image search directories), registers each Swift image's reflection sections at
/// their target addresses, and answers each query with what libswiftRemoteMirror reads from the
/// target's memory through ``TargetMirrorMemory``. The target is never written.
enum TargetWorker {
    /// Runs the target mode after its header line was read; returns the process exit status.
    static func run() -> Int32 {
        var lines = [TargetWire.header]
        while let line = readLine(strippingNewline: true) {
            guard line.utf8.count <= LoweringWire.maximumLineLength, lines.count < 1 << 22 else {
                emit(TargetWire.header)
                emit(TargetReply.failed("request too large").encoded)
                return 2
            }
            lines.append(line)
            if line == "end" { break }
        }
        emit(TargetWire.header)
        let request: TargetRequest
        switch TargetRequest.decode(lines: lines) {
        case .success(let decoded): request = decoded
        case .failure(let error):
            emit(TargetReply.failed("\(error)").encoded)
            return 2
        }
        let context: RemoteMirrorContext
        let mirror: TargetMirrorMemory
        do throws(TypeLoweringError) {
            let memory: TargetMemory
            do {
                memory = try TargetMemory(request.target, imageSearchPaths: request.imageSearchPaths)
            } catch {
                throw .target(error)
            }
            mirror = try TargetMirrorMemory(
                memory: memory,
                toolchainConcurrencyLibrary: LoweringConfiguration.concurrencyLibrary(besideRemoteMirror: request.libraryPath))
            context = try RemoteMirrorContext(library: try RemoteMirrorLibrary(path: request.libraryPath), target: mirror)
        } catch {
            emit(TargetReply.failed(error.description).encoded)
            return 3
        }
        emit(TargetReply.ready(swiftImages: mirror.reflectionSections.count).encoded)
        // The process ends after the last answer: the context is left to the exit.
        _ = Unmanaged.passRetained(context)
        var concurrency: Result<RemoteMirrorConcurrency, MirrorError>?
        for query in request.queries {
            switch query {
            case .task, .actor:
                if concurrency == nil { concurrency = RemoteMirrorConcurrency.verified(context.library, path: request.libraryPath) }
                switch concurrency {
                case .success(let functions)?: answer(query, context: context, functions: functions)
                case .failure(let error)?:
                    emit(TargetReply.failed(error.text).encoded)
                    return 5
                case nil: break
                }
            case .threads(let image):
                switch TargetThreadList.read(mirror.memory, runtimeImage: image, searchDirectories: request.imageSearchPaths) {
                case .success(let list):
                    for thread in list.threads { emit(TargetReply.thread(thread).encoded) }
                    emit(TargetReply.threads(truncated: list.isTruncated, reason: "").encoded)
                case .failure(let error): emit(TargetReply.threads(truncated: nil, reason: error.text).encoded)
                }
            case .name(let metadata):
                let mangling = context.typeRef(metadata: metadata).flatMap { context.mangledName(of: $0) }
                emit(TargetReply.name(metadata, mangling: mangling).encoded)
            case .fields(let metadata):
                let info = context.info(ofMetadata: metadata)
                let count = min(info?.fieldCount ?? 0, LoweringWire.maximumChildren)
                for index in 0..<count {
                    guard let child = context.child(ofMetadata: metadata, at: index) else { continue }
                    emit(TargetReply.field(metadata, record(of: child, context: context)).encoded)
                }
                emit(TargetReply.fields(metadata, count: info == nil ? nil : count).encoded)
            case .layout(let mangling):
                guard let typeRef = context.typeRef(mangledName: mangling), let info = context.info(of: typeRef) else {
                    emit(TargetReply.layout(mangling, nil).encoded)
                    break
                }
                let count = min(info.fieldCount, LoweringWire.maximumChildren)
                var children = 0
                for index in 0..<count {
                    guard let child = context.child(of: typeRef, at: index) else { break }
                    emit(TargetReply.child(mangling, record(of: child, context: context)).encoded)
                    children += 1
                }
                let layout = TargetTypeLayout(
                    kind: info.kind, size: info.size, alignment: info.alignment, stride: info.stride, childCount: children)
                emit(TargetReply.layout(mangling, children == count ? layout : nil).encoded)
            case .enumCase(let mangling, let address):
                let typeRef = context.typeRef(mangledName: mangling)
                let index = typeRef.flatMap { context.caseIndex(ofValueAt: address, typeRef: $0) }
                let name = typeRef.flatMap { typeRef in index.flatMap { context.child(of: typeRef, at: $0)?.name } }
                emit(TargetReply.enumCase(mangling, address, index: name == nil ? nil : index, name: name).encoded)
            case .generics:
                guard let allocations = RemoteMirrorAllocations(context.library) else {
                    emit(
                        TargetReply.generics(
                            .failure(TargetListingUnavailable(reason: "this libswiftRemoteMirror cannot read metadata allocations"))
                        )
                        .encoded)
                    break
                }
                switch allocations.genericMetadata(in: context, target: mirror) {
                case .success(let listing):
                    for address in listing.metadata {
                        let mangling = context.typeRef(metadata: address).flatMap { context.mangledName(of: $0) }
                        emit(TargetReply.name(address, mangling: mangling).encoded)
                    }
                    emit(
                        TargetReply.generics(.success(GenericsListing(count: listing.metadata.count, stops: listing.stops))).encoded
                    )
                case .failure(let error):
                    emit(TargetReply.generics(.failure(error)).encoded)
                }
            }
            if let lost = mirror.targetLost {
                emit(TargetReply.failed(lost.description).encoded)
                return 4
            }
        }
        emit(TargetReply.done.encoded)
        return 0
    }

    /// Answers a task or actor query.
    private static func answer(_ query: TargetRequest.Query, context: RemoteMirrorContext, functions: RemoteMirrorConcurrency) {
        switch query {
        case .task(let address):
            switch context.taskInfo(at: address, using: functions) {
            case .success(let info): emit(TargetReply.task(address, info).encoded)
            case .failure(let error): emit(TargetReply.unread(isTask: true, address, reason: error.text).encoded)
            }
        case .actor(let address):
            switch context.actorInfo(at: address, using: functions) {
            case .success(let info): emit(TargetReply.actor(address, info).encoded)
            case .failure(let error): emit(TargetReply.unread(isTask: false, address, reason: error.text).encoded)
            }
        default: break
        }
    }

    /// A child (field, element, case) as the wire states it, its type by mangling.
    private static func record(of child: LoweredChild, context: RemoteMirrorContext) -> TargetFieldRecord {
        TargetFieldRecord(
            offset: child.offset, kind: child.kind == .unknown ? nil : child.kind,
            mangledType: child.typeRef.flatMap { context.mangledName(of: $0) }, name: child.name)
    }

    private static func emit(_ line: String) {
        _ = try? FileDescriptor.standardOutput.writeAll((line + "\n").utf8)
    }
}
