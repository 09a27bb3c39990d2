import Foundation
import OfflineStorePlatform

extension KintoBackend: BlobBackend {
    /// kinto-attachment keeps its metadata (`location`, `hash`, …) in the record's `attachment`.
    public var blobMetadataFields: [String] { ["attachment"] }

    /// kinto-attachment stores one file per record.
    public var maxBlobFieldsPerObject: Int? { 1 }

    /// Posts the file as `multipart/form-data` (part `attachment`, filename = the field's
    /// name) to `…/records/{id}/attachment` with `If-Match` on the known version, streaming
    /// the body from a temporary file; then reads the record back for its new version.
    ///
    /// - Throws: ``OfflineStoreError``: `offline`, `timeout`, `server` (5xx),
    ///   `unauthorized` (401/403), `badResponse` (a stored hash that is not ours).
    public func uploadBlob(_ upload: BlobUpload) async throws -> BlobUploadOutcome {
        try checkName(upload.collection)
        try validate(id: upload.id)
        try checkBackoff()
        let what = "uploading the blob \(upload.field) of \(upload.collection)/\(upload.id)"
        let body = try MultipartFile.write(field: "attachment", filename: upload.field,
                                           mimetype: upload.reference.mimetype, contents: upload.file)
        defer { try? FileManager.default.removeItem(at: body.file) }
        var headers: [(String, String)] = [("Accept", "application/json"), ("Content-Type", body.contentType)]
        if let version = upload.baseVersion { headers.append(("If-Match", "\"\(version)\"")) }
        let url = paths.url(paths.recordPath(upload.collection, id: upload.id) + "/attachment")
        let reply = try await sendFile(HTTPRequest(method: "POST", url: url, headers: headers, timeout: configuration.timeout),
                                       file: body.file, what: what)
        switch reply.status {
        case 200..<300:
            guard reply.json?["hash"]?.stringValue == upload.reference.sha256 else { throw reply.badResponse(what) }
            return .stored(try await fetch(collection: upload.collection, id: upload.id))
        case 412: return .conflict
        case 401, 403: throw reply.error(what)
        case 400..<500: return .rejected(status: reply.status, body: reply.text)
        default: throw reply.error(what)
        }
    }

    /// Downloads `record.attachment.location` when its `hash` is the reference's SHA-256.
    /// Credentials are sent only when the location is on the Kinto server's own origin.
    ///
    /// - Throws: ``OfflineStoreError``: `offline`, `timeout`, `server`, `unauthorized`.
    public func downloadBlob(collection: String, id: String, field: String, reference: BlobReference,
                             record: JSONValue, to file: URL) async throws -> Bool {
        guard let attachment = record["attachment"], attachment["hash"]?.stringValue == reference.sha256,
              let text = attachment["location"]?.stringValue, let location = URL(string: text),
              let scheme = location.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return false }
        var headers: [(String, String)] = []
        if paths.isSameOrigin(location), let auth = try await authHeader() { headers.append(auth) }
        let what = "downloading the blob \(field) of \(collection)/\(id)"
        let response: HTTPResponse
        do {
            response = try await transport.download(HTTPRequest(method: "GET", url: location, headers: headers,
                                                                 timeout: configuration.timeout), to: file)
        } catch let error as TransportError {
            throw OfflineStoreError(transport: error, while: what)
        }
        let reply = KintoReply(response)
        if reply.status == 404 { return false }
        guard reply.isSuccess else { throw reply.error(what) }
        return true
    }

    /// Sends a request whose body is a file, with credentials; maps transport failures like ``send(_:_:headers:body:what:)``.
    private func sendFile(_ request: HTTPRequest, file: URL, what: String) async throws -> KintoReply {
        var request = request
        if let auth = try await authHeader() { request.headers.append(auth) }
        do {
            return KintoReply(try await transport.upload(request, fromFile: file))
        } catch let error as TransportError {
            throw OfflineStoreError(transport: error, while: what)
        }
    }
}

/// A `multipart/form-data` body with one file part, written to a temporary file in
/// pieces so the blob is never held in memory.
enum MultipartFile {
    /// How many bytes are copied at a time.
    static let chunkSize = 1 << 20

    /// Writes the body; the caller removes the returned file.
    ///
    /// - Throws: ``OfflineStoreError/Code/storage`` when the files cannot be read or written.
    static func write(field: String, filename: String, mimetype: String, contents: URL) throws -> (file: URL, contentType: String) {
        let boundary = "offlinestore-" + UUID().uuidString.lowercased()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID().uuidString.lowercased()).multipart")
        do {
            guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw OfflineStoreError(.storage, "cannot create the temporary upload file")
            }
            // The body carries the blob: it takes the blob file's data protection class.
            try DataProtection.copy(from: contents.path, to: file.path)
            let out = try FileHandle(forWritingTo: file)
            defer { try? out.close() }
            let input = try FileHandle(forReadingFrom: contents)
            defer { try? input.close() }
            let safeMime = mimetype.filter { $0 != "\r" && $0 != "\n" }
            try out.write(contentsOf: Data(("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"\(filename)\"\r\n"
                + "Content-Type: \(safeMime)\r\n\r\n").utf8))
            while let chunk = try input.read(upToCount: chunkSize), !chunk.isEmpty {
                try out.write(contentsOf: chunk)
            }
            try out.write(contentsOf: Data("\r\n--\(boundary)--\r\n".utf8))
        } catch let error as OfflineStoreError {
            try? FileManager.default.removeItem(at: file)
            throw error
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw OfflineStoreError(.storage, "cannot write the upload body", underlying: String(describing: error))
        }
        return (file, "multipart/form-data; boundary=\(boundary)")
    }
}
