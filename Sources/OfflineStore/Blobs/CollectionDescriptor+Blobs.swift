extension CollectionDescriptor {
    /// The declared blob field with this name, or nil.
    public func blobField(named name: String) -> BlobField? {
        blobFields.first { $0.name == name }
    }

    /// Whether `name` is a declared blob field.
    func isBlobField(_ name: String) -> Bool { blobField(named: name) != nil }

    /// Checks the blob field declarations: valid, distinct names, not also a declared JSON field.
    func validateBlobFields() throws {
        var seen = Set<String>()
        for blob in blobFields {
            guard FieldSchema.isValidName(blob.name), blob.name != "id" else {
                throw OfflineStoreError(.invalidFieldPath, "blob field name '\(blob.name)' must be letters, digits and '_' (and not 'id')")
            }
            guard seen.insert(blob.name).inserted, fields?.contains(where: { $0.name == blob.name }) != true else {
                throw OfflineStoreError(.invalidFieldPath, "field '\(blob.name)' is declared twice")
            }
        }
    }

    /// Checks that every blob field of an object holds a reference (or null).
    ///
    /// - Throws: ``OfflineStoreError/Code/schemaViolation`` naming the field.
    func validateBlobValues(_ object: [String: JSONValue]) throws {
        for blob in blobFields {
            guard let value = object[blob.name], value != .null else { continue }
            guard BlobReference(json: value) != nil else {
                throw OfflineStoreError(.schemaViolation, "collection \(name): blob field '\(blob.name)' must hold a blob reference; attach blobs with attach(_:field:file:)")
            }
        }
    }
}
