class ProductsController < ApplicationController
  include RestResource
  before_action :set_record, only: [:show, :update, :destroy]
  before_action :check_if_match, only: [:update, :destroy]

  private

  def model = Product

  def record_params
    params.require(:product).permit(:name, :price, :lock_version)
  end
end
