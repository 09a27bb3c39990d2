class ProductsController < ApplicationController
  include RestResource
  include ProductImage
  before_action :set_record, only: [:show, :update, :destroy, :upload_image, :image]
  before_action :check_if_match, only: [:update, :destroy, :upload_image]

  private

  def model = Product

  def record_params
    params.require(:product).permit(:name, :price, :lock_version, :image, image: [:blob, :size, :sha256, :mimetype])
  end
end
