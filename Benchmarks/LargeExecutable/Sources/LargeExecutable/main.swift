import Crypto
import NIOCore
import NIOHTTP1
import NIOPosix
import SwiftProtobuf

// Uses each library so that the linker keeps its types.
var buffer = ByteBufferAllocator().buffer(capacity: 64)
buffer.writeString("typeinfo")
let digest = SHA256.hash(data: Array(buffer.readableBytesView))
var value = Google_Protobuf_StringValue()
value.value = digest.description
let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/")
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
print(value.value.count, head.uri, buffer.readableBytes)
try group.syncShutdownGracefully()
