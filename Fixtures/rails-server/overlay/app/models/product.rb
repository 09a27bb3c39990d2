class Product < ApplicationRecord
  include SoftDeletable
  validates :name, presence: true
  validates :price, presence: true, numericality: { greater_than_or_equal_to: 0 }

  # Where the stored image is served (relative to the app); nil before an upload.
  def image_url
    image_sha256 && "/products/#{id}/image"
  end

  def serializable_hash(options = nil)
    super.merge("image_url" => image_url)
  end
end
