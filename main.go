package main
import (
 _ "github.com/pressly/goose/v3"
 _ "github.com/labstack/echo/v4"
 _ "gorm.io/gorm"
 _ "gorm.io/driver/postgres"
 _ "github.com/glebarez/sqlite"
 _ "github.com/gorilla/sessions"
 _ "github.com/redis/go-redis/v9"
 _ "github.com/chromedp/chromedp"
 _ "golang.org/x/crypto/argon2"
 _ "github.com/PuerkitoBio/goquery"
 _ "github.com/a-h/templ"
)
func main(){}
