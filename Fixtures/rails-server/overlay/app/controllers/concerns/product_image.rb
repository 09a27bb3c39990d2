# A product's image as a plain file under storage/product_images (no Active Storage):
# POST /products/:id/image takes a multipart `image` part (If-Match checked like updates),
# refuses one over PRODUCT_IMAGE_MAX_BYTES (default 1 MiB) with 413, writes the file,
# records name/size/SHA-256/type and answers the record; GET /products/:id/image sends it.
module ProductImage
  extend ActiveSupport::Concern
  MAX_BYTES = Integer(ENV.fetch("PRODUCT_IMAGE_MAX_BYTES", 1_048_576))

  def upload_image
    file = params[:image]
    unless file.respond_to?(:tempfile)
      return render(json: { error: "bad request", message: "expected a multipart file part named image" }, status: :bad_request)
    end
    if file.size > MAX_BYTES
      return render(json: { error: "payload too large", message: "the image has #{file.size} bytes; at most #{MAX_BYTES} are accepted" },
                    status: :payload_too_large)
    end
    FileUtils.mkdir_p(image_dir)
    temporary = image_dir.join("#{@record.id}.#{SecureRandom.hex(8)}.part")
    FileUtils.cp(file.tempfile.path, temporary)
    File.rename(temporary, image_path)
    @record.update!(image_filename: file.original_filename, image_size: file.size,
                    image_sha256: Digest::SHA256.file(image_path).hexdigest, image_content_type: file.content_type)
    render_record(@record)
  end

  def image
    unless @record.image_sha256 && File.exist?(image_path)
      return render(json: { error: "not found", message: "product #{@record.id} has no image" }, status: :not_found)
    end
    send_file image_path, type: @record.image_content_type || "application/octet-stream", disposition: "inline"
  end

  private

  def image_dir = Rails.root.join("storage", "product_images")

  def image_path = image_dir.join(@record.id.to_s)
end
