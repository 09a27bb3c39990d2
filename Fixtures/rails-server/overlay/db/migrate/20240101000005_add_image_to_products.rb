# A product's image (the blob route of the REST backend's tests): the client's blob
# reference as JSON, and what the upload action stored (file name, size, SHA-256, type).
class AddImageToProducts < ActiveRecord::Migration[6.1]
  def change
    add_column :products, :image, :json
    add_column :products, :image_filename, :string
    add_column :products, :image_size, :integer
    add_column :products, :image_sha256, :string
    add_column :products, :image_content_type, :string
  end
end
